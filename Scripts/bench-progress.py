#!/usr/bin/env python3
"""Reads package-benchmark's output on stdin and prints one line per scenario as it starts:
`[3/52] Store/1,000 fields K=1 keypath write/Compose`. Everything else (tables, progress bars)
goes to the log file named by the first argument, so a failed run can be read there.

The total is the number of names in the file given as the second argument (the output of
`swift package benchmark list`, which lists every scenario) that the filter given as the third
argument matches, as package-benchmark matches it (the whole name)."""

import re
import sys

log_path, list_path, name_filter = sys.argv[1], sys.argv[2], sys.argv[3]
name_pattern = re.compile(r"^(?:.*\| [^:|]*:)?(\S.*) \(ops: \d+, unit: [^)]*\)\s*$")
ansi = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")

with open(list_path, encoding="utf-8", errors="replace") as listing:
    names = {m.group(1) for line in listing if (m := name_pattern.match(ansi.sub("", line)))}
names = {name for name in names if re.fullmatch(name_filter, name)}
total = len(names)
seen = []

with open(log_path, "w", encoding="utf-8") as log:
    for raw in sys.stdin:
        log.write(raw)
        line = ansi.sub("", raw)
        if " | " not in line:  # progress lines end in "| <target>:<name> (ops: ...)"
            continue
        match = name_pattern.match(line.strip())
        if match and match.group(1) not in seen:
            seen.append(match.group(1))
            print(f"[{len(seen)}/{total or '?'}] {match.group(1)}", flush=True)
