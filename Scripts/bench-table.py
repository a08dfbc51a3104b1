#!/usr/bin/env python3
"""Turns the benchmark executable's JMH export into the table the Performance article quotes.

Each benchmark is named "<Module>/<scenario>/<variant>" and tagged with "ops" (logical operations
per iteration) and "unit". For each scenario the table shows our figure (operations per second at
the median iteration), each peer's, and the ratio, next to the target an issue set. Allocation
rows divide the malloc counter by the operations of one iteration. Memory rows come from the
second file, ComposeMemory's JSON object of scenario name to bytes.
"""
import json
import re
import sys
from collections import OrderedDict

NAME = re.compile(r"^(?P<base>.*?) \((?P<tags>[^()]*)\)$")


def parse(path):
    with open(path) as handle:
        runs = json.load(handle)
    results = OrderedDict()
    for run in runs:
        name = run["benchmark"]
        # The JMH export prefixes "package.benchmark.<Target>."; the rest is the display name.
        name = re.sub(r"^package\.benchmark\.[^.]+\.", "", name).replace("_", " ")
        match = NAME.match(name)
        tags = {}
        if match:
            name = match.group("base")
            for pair in match.group("tags").split(", "):
                key, _, value = pair.partition(": ")
                tags[key] = value
        ops = float(tags.get("ops", 1))
        metrics = {"throughput": run["primaryMetric"]}
        metrics.update(run.get("secondaryMetrics", {}))
        wall = metrics.get("Time (wall clock)")
        mallocs = metrics.get("Malloc (total)")
        p50 = lambda metric: metric["scorePercentiles"]["50.0"]
        seconds = None
        if wall:
            unit = wall["scoreUnit"]
            scale = {"ns": 1e-9, "μs": 1e-6, "us": 1e-6, "ms": 1e-3, "s": 1.0}[unit]
            seconds = p50(wall) * scale
        custom = {key: p50(value) for key, value in metrics.items()
                   if key not in ("throughput", "Time (wall clock)", "Malloc (total)")}
        results[name] = {
            "custom": custom,
            "ops": ops,
            "unit": tags.get("unit", "ops"),
            "per_second": ops / seconds if seconds else None,
            "ns_per_op": seconds / ops * 1e9 if seconds else None,
            "mallocs_per_op": p50(mallocs) / ops if mallocs else None,
        }
    return results


def human(value):
    if value is None:
        return "-"
    for factor, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if value >= factor:
            return f"{value / factor:.2f}{suffix}"
    return f"{value:.2f}"


# (scenario row, ours, baseline, how to compare, target text, target check)
# "faster": ours per second / baseline per second; "cost": ours ns per op / baseline ns per op.
COMPARISONS = []


def compare(label, ours, baseline, kind, target, check):
    COMPARISONS.append((label, ours, baseline, kind, target, check))


for n in (1, 10, 100, 1_000, 10_000):
    scenario = f"Emitters/fan-out N={n}"
    floor = 0.95 if n == 10 else 0.75
    compare(f"fan-out N={n} vs closure loop", f"{scenario}/Compose", f"{scenario}/closure loop",
            "faster", f">= {floor}x", lambda r, floor=floor: r >= floor)
    compare(f"fan-out N={n} vs OpenCombine", f"{scenario}/Compose", f"{scenario}/OpenCombine",
            "faster", ">= 10x" if n >= 100 else (">= 3x" if n == 1 else ""),
            (lambda r: r >= 10) if n >= 100 else ((lambda r: r >= 3) if n == 1 else None))
# A floor, not a peer: two uncontended compare-and-exchanges around the loop, the least a send
# costs in a delivery that takes sends from every thread in order without waiting or losing one.
compare("fan-out N=1: two compare-and-exchanges per send vs closure loop (floor)",
        "Emitters/fan-out N=1/closure loop with two compare-and-exchanges", "Emitters/fan-out N=1/closure loop",
        "faster", "", None)
compare("fan-out N=1 vs closure loop under a lock", "Emitters/fan-out N=1/Compose",
        "Emitters/fan-out N=1/closure loop under a lock", "faster", "", None)
compare("chain map-filter-undup-tap vs OpenCombine", "Emitters/chain map-filter-undup-tap/Compose",
        "Emitters/chain map-filter-undup-tap/OpenCombine", "faster", ">= 5x", lambda r: r >= 5)
compare("subscribe+cancel, 10,000 live vs 10 live", "Emitters/subscribe+cancel live=10000/Compose",
        "Emitters/subscribe+cancel live=10/Compose", "cost", "<= 2x cost", lambda r: r <= 2)
for n in (10, 10_000):
    compare(f"subscribe+cancel live={n} vs OpenCombine", f"Emitters/subscribe+cancel live={n}/Compose",
            f"Emitters/subscribe+cancel live={n}/OpenCombine", "faster", "", None)
for n in (1, 100):
    scenario = f"Emitters/main-actor fan-out N={n}"
    compare(f"main-actor fan-out N={n} vs closure loop", f"{scenario}/Compose", f"{scenario}/closure loop",
            "faster", "", None)

for k in (1, 100, 10_000):
    scenario = f"Store/1,000 fields K={k}"
    for write in ("keypath write", "whole-state write"):
        big = k >= 10_000
        compare(f"store 1,000 fields K={k}, {write} vs OpenCombine", f"{scenario} {write}/Compose",
                f"{scenario} property write/OpenCombine", "faster", ">= 1000x" if big else "",
                (lambda r: r >= 1000) if big else None)
        floor = 1.5 if write == "keypath write" else (0.5 if k == 1 else 1.0)
        compare(f"store 1,000 fields K={k}, {write} vs Observation", f"{scenario} {write}/Compose",
                f"{scenario} property write/Observation", "faster", f">= {floor}x",
                lambda r, floor=floor: r >= floor)
# Informational: at K=1 almost every write is heard by nobody and queues no notice, while at
# K=10,000 every field has about ten observers to call, so the two do different work.
for write in ("keypath write", "whole-state write"):
    compare(f"store {write}: cost at K=10,000 vs K=1", f"Store/1,000 fields K=10000 {write}/Compose",
            f"Store/1,000 fields K=1 {write}/Compose", "cost", "", None)
for write in ("keypath write", "whole-state write"):
    compare(f"store 10 fields K=10, {write} vs OpenCombine", f"Store/10 fields K=10 {write}/Compose",
            "Store/10 fields K=10 property write/OpenCombine", "faster", "", None)
    compare(f"store 10 fields K=10, {write} vs Observation", f"Store/10 fields K=10 {write}/Compose",
            "Store/10 fields K=10 property write/Observation", "faster", "", None)
for write in ("keypath write", "whole-state write"):
    compare(f"app state (40 fields, 200 observers), {write} vs Observation", f"Store/app state {write}/Compose",
            "Store/app state property write/Observation", "faster", ">= 3x", lambda r: r >= 3)

compare("Observation peer: expanded by hand vs @Observable (10 fields)",
        "Store/10 fields K=10 property write/Observation (expanded by hand)",
        "Store/10 fields K=10 property write/Observation", "faster", "about 1x", None)

compare("ArrayField: cost of 100,000 elements vs 10,000", "Validation/ArrayField 100000 elements/Compose",
        "Validation/ArrayField 10000 elements/Compose", "cost", "<= 12x cost", lambda r: r <= 12)
# A floor, not a peer: the rules' checks written as a loop, at both sizes.
compare("ArrayField's checks in a loop: cost of 100,000 vs 10,000 (floor)",
        "Validation/ArrayField 100000 elements/floor: the rules' checks in a loop",
        "Validation/ArrayField 10000 elements/floor: the rules' checks in a loop", "cost", "", None)

compare("pattern class: cost per character, 20,000 members vs 20", "Validation/class of 20000 members, 10,000 characters/Compose",
        "Validation/class of 20 members, 10,000 characters/Compose", "cost", "<= 3x cost (O(log r))", lambda r: r <= 3)

compare("save 1 MB state vs JSONEncoder + Data.write(.atomic)", "Persistence/save 1 MB state/Compose",
        "Persistence/save 1 MB state/JSONEncoder + Data.write(.atomic)", "cost", "<= 1.5x cost", lambda r: r <= 1.5)
compare("restore 1 MB state vs Data(contentsOf:) + JSONDecoder", "Persistence/restore 1 MB state/Compose",
        "Persistence/restore 1 MB state/Data(contentsOf:) + JSONDecoder", "cost", "", None)

compare("one ref write heard by 1 store vs Observation (1 tracker)", "Refs/one write to M=1 stores/Compose",
        "Refs/one write heard by one tracker/Observation", "faster", ">= 1x", lambda r: r >= 1)
for m in (100, 1_000):
    compare(f"one ref write to M={m} stores: cost vs M=1", f"Refs/one write to M={m} stores/Compose",
            "Refs/one write to M=1 stores/Compose", "cost", "", None)
compare("ref write: cost with 100,000 ids alive vs 100", "Refs/one write, 100000 ids alive/Compose",
        "Refs/one write, 100 ids alive/Compose", "cost", "<= 2x cost", lambda r: r <= 2)
compare("ref id look-up: cost with 100,000 ids alive vs 100", "Refs/look up a live id, 100000 ids alive/Compose",
        "Refs/look up a live id, 100 ids alive/Compose", "cost", "<= 2x cost", lambda r: r <= 2)
compare("diff 10,000 identified elements vs stdlib inferringMoves", "Store/diff 10000 elements/Compose",
        "Store/diff 10000 elements/stdlib difference(from:).inferringMoves()", "faster", ">= 20x",
        lambda r: r >= 20)
compare("diff: cost of 100,000 elements vs 10,000", "Store/diff 100000 elements/Compose",
        "Store/diff 10000 elements/Compose", "cost", "<= 11x cost", lambda r: r <= 11)
# A floor, not a peer: the standard library's Set of the old ids, at both sizes.
compare("stdlib Set of the old ids: cost of 100,000 vs 10,000 (floor)", "Store/diff 100000 elements/stdlib Set of the old ids",
        "Store/diff 10000 elements/stdlib Set of the old ids", "cost", "", None)
compare("push+pop: cost at depth 1,000 vs depth 1", "Components/push+pop at depth 1000/Compose",
        "Components/push+pop at depth 1/Compose", "cost", "<= 2x cost", lambda r: r <= 2)
compare("mounting: cost per component, 10,000 vs 1,000", "Components/mount a tree of 10000/Compose",
        "Components/mount a tree of 1000/Compose", "cost", "<= 1.2x (12x in total)", lambda r: r <= 1.2)
# A floor, not a peer: a node per component in a table by identity, at both sizes.
compare("a node per component in a table: cost per component, 10,000 vs 1,000 (floor)",
        "Components/mount a tree of 10000/floor: a node per component, in a table by identity",
        "Components/mount a tree of 1000/floor: a node per component, in a table by identity", "cost", "", None)
compare("parsing: cost of 1,000 segments vs 20", "Routing/parse 1000 segments/Compose",
        "Routing/parse 20 segments/Compose", "cost", "<= 60x cost", lambda r: r <= 60)
compare("typing into a form: a recorder attached vs none", "Sessions/typing, one input per keystroke/Compose",
        "Sessions/typing, one input per keystroke/no recorder", "cost", "", None)
compare("a tap with ten consequence sends: a recorder attached vs none",
        "Sessions/a tap with ten consequence sends/Compose", "Sessions/a tap with ten consequence sends/no recorder",
        "cost", "", None)

# (row, benchmark, metric, target text, check on the metric's median)
COUNTS = [
    ("file writes for a burst of 1,000 autosaved changes", "Persistence/autosave burst of 1,000 changes/Compose",
     "file writes", "<= 2", lambda count: count <= 2),
]

# (row, benchmark, target text, check on nanoseconds per operation)
ABSOLUTE = [
    ("20-field form validated after a keystroke", "Validation/20-field form after a keystroke/Compose",
     "< 10 µs", lambda ns: ns < 10_000),
    ("pattern at the size limit: time per instruction visit", "Validation/pattern at the size limit, 10,000 characters/Compose",
     "", None),
    ("one ref write heard by 1 store", "Refs/one write to M=1 stores/Compose", "", None),
    ("one ref write heard by 1,000 stores", "Refs/one write to M=1000 stores/Compose", "", None),
    ("diff of 10,000 identified elements", "Store/diff 10000 elements/Compose", "", None),
    ("one push or pop at depth 1,000", "Components/push+pop at depth 1000/Compose", "", None),
    ("mounting, per component (tree of 10,000)", "Components/mount a tree of 10000/Compose", "", None),
    ("parse and apply a 20-segment deep link", "Routing/parse+apply 20-segment deep link/Compose", "", None),
    ("parse a 20-segment path", "Routing/parse 20 segments/Compose", "", None),
    ("one keystroke recorded as an input (a sign-up form)", "Sessions/typing, one input per keystroke/Compose", "", None),
    ("one keystroke, no recorder", "Sessions/typing, one input per keystroke/no recorder", "", None),
    ("a tap and its ten consequence sends, recorded", "Sessions/a tap with ten consequence sends/Compose", "", None),
    ("a tap and its ten consequence sends, no recorder", "Sessions/a tap with ten consequence sends/no recorder", "", None),
    ("diff of 100,000 identified elements", "Store/diff 100000 elements/Compose", "", None),
    ("read a count through a @Ref by key path (each store's observer does)",
     "Refs/read a count through a @Ref/key path", "", None),
    ("read a count through a @Ref by property access", "Refs/read a count through a @Ref/property access", "", None),
]

# (row, benchmark, baseline, target text, check on (ours - baseline) ns / extra): the cost of each
# operation beyond the first.
MARGINAL = [
    ("one ref write: cost of each further store (M=1,000 vs M=1)", "Refs/one write to M=1000 stores/Compose",
     "Refs/one write to M=1 stores/Compose", 999, "<= 300 ns", lambda ns: ns <= 300),
]

# (row, ours, peer or None, target text, check on (ours bytes, peer bytes), or None)
MEMORY = [
    ("bytes per store of 10 Int fields vs an @Observable class", "Memory/store of 10 Int fields/Compose",
     "Memory/store of 10 Int fields/Observation", "<= 2x", lambda ours, peer: ours <= 2 * peer),
    ("bytes per emitter subscriber vs an OpenCombine sink", "Memory/emitter subscriber/Compose",
     "Memory/emitter subscriber/OpenCombine", "<= 64", lambda ours, _: ours <= 64),
    ("bytes per emitter subscriber: its handler alone (an @isolated(any) closure)",
     "Memory/emitter subscriber/its handler alone", None, "", None),
    ("bytes per keypath observer", "Memory/keypath observer/Compose", None, "<= 333", lambda ours, _: ours <= 333),
    ("bytes per emitter subscriber, main-actor handler", "Memory/emitter subscriber, main-actor handler/Compose",
     None, "", None),
    ("bytes per keypath observer, main-actor handler", "Memory/keypath observer, main-actor handler/Compose",
     None, "", None),
]

ALLOCATIONS = [
    ("allocations per send, plain send (N=100)", "Emitters/fan-out N=100/Compose", 100, "0"),
    ("allocations per send, chain", "Emitters/chain map-filter-undup-tap/Compose", 1, "0"),
    ("allocations per mutation nobody observes, keypath write",
     "Store/1,000 fields unobserved keypath write/Compose", 1, "0"),
    ("allocations per mutation nobody observes, whole-state write",
     "Store/1,000 fields unobserved whole-state write/Compose", 1, "0"),
]


def main(path, memory_path=None):
    results = parse(path)
    if memory_path:
        with open(memory_path) as handle:
            for name, bytes_each in json.load(handle).items():
                results[name] = {"custom": {"bytes": bytes_each}, "ops": 1, "unit": "objects",
                                 "per_second": None, "ns_per_op": None, "mallocs_per_op": None}
    rows = []
    for label, ours, baseline, kind, target, check in COMPARISONS:
        if ours not in results or baseline not in results:
            continue
        a, b = results[ours], results[baseline]
        if kind == "faster":
            ratio = a["per_second"] / b["per_second"]
            ours_text = f"{human(a['per_second'])} {a['unit']}/s"
            peer_text = f"{human(b['per_second'])} {b['unit']}/s"
        else:
            ratio = a["ns_per_op"] / b["ns_per_op"]
            ours_text = f"{a['ns_per_op']:.0f} ns/{a['unit']}"
            peer_text = f"{b['ns_per_op']:.0f} ns/{b['unit']}"
        verdict = "" if check is None else ("met" if check(ratio) else "MISSED")
        rows.append((label, ours_text, peer_text, f"{ratio:.2f}x", target, verdict))
    for label, name, metric, target, check in COUNTS:
        if name not in results or metric not in results[name]["custom"]:
            continue
        count = results[name]["custom"][metric]
        rows.append((label, f"{count:g}", "-", "-", target, "met" if check(count) else "MISSED"))
    for label, name, target, check in ABSOLUTE:
        if name not in results or results[name]["ns_per_op"] is None:
            continue
        ns = results[name]["ns_per_op"]
        figure = f"{ns / 1000:.2f} µs" if ns >= 1000 else f"{ns:.0f} ns"
        verdict = "" if check is None else ("met" if check(ns) else "MISSED")
        rows.append((label, figure, "-", "-", target, verdict))
    for label, name, baseline, extra, target, check in MARGINAL:
        if name not in results or baseline not in results:
            continue
        ns = (results[name]["ns_per_op"] - results[baseline]["ns_per_op"]) / extra
        rows.append((label, f"{ns:.0f} ns", "-", "-", target, "met" if check(ns) else "MISSED"))
    for label, name, peer, target, check in MEMORY:
        if name not in results or "bytes" not in results[name]["custom"]:
            continue
        ours = results[name]["custom"]["bytes"]
        theirs = results[peer]["custom"].get("bytes") if peer in results else None
        if peer is not None and theirs is None:
            continue
        ratio = f"{ours / theirs:.2f}x" if theirs else "-"
        verdict = "" if check is None else ("met" if check(ours, theirs) else "MISSED")
        rows.append((label, f"{ours:g} bytes", f"{theirs:g} bytes" if theirs else "-", ratio, target, verdict))
    for label, name, deliveries_per_send, target in ALLOCATIONS:
        if name not in results or results[name]["mallocs_per_op"] is None:
            continue
        per_send = results[name]["mallocs_per_op"] * deliveries_per_send  # per send or mutation
        rows.append((label, f"{per_send:.3f}", "-", "-", target, "met" if per_send < 0.001 else "MISSED"))

    headers = ("Scenario", "Compose", "Peer", "Ratio", "Target", "")
    widths = [max(len(str(row[i])) for row in rows + [headers]) for i in range(len(headers))]
    line = lambda row: "| " + " | ".join(str(cell).ljust(width) for cell, width in zip(row, widths)) + " |"
    print(line(headers))
    print("|" + "|".join("-" * (width + 2) for width in widths) + "|")
    for row in rows:
        print(line(row))

    print()
    print("Every benchmark (median iteration):")
    for name, result in results.items():
        if result["per_second"] is None and "bytes" in result["custom"]:
            print(f"  {name}: {result['custom']['bytes']:g} bytes each")
            continue
        per_second = human(result["per_second"])
        ns = f"{result['ns_per_op']:.1f}" if result["ns_per_op"] is not None else "-"
        mallocs = f"{result['mallocs_per_op']:.3f}" if result["mallocs_per_op"] is not None else "-"
        print(f"  {name}: {per_second} {result['unit']}/s, {ns} ns each, {mallocs} mallocs each")


if __name__ == "__main__":
    main(*sys.argv[1:3])
