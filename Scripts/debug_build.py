"""The package's debug build, for the scripts that compile against it with `swiftc`.

`Scripts/check-swiftui` and `Scripts/check-combine-bridge` compile a few modules of their own
against the Compose modules of `swift build`'s debug build, so that CI builds the library once
for the tests, the docs and those checks. They need where the build keeps its modules and the
flags SwiftPM gives the package's targets (language mode, upcoming features, the C shim's module
map, the package name). Those flags are read from the build plan SwiftPM writes
(`.build/debug.yaml`): a detail of SwiftPM, read here and nowhere else, and checked as it is
read (this module fails, naming what it missed, when the plan does not hold what it expects).
"""
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The package target whose compile command gives the flags (any library target would do).
REFERENCE_TARGET = "ComposeStore"
# What is kept of that command: flags of these names, with their value when they take one.
KEPT_WITH_VALUE = {"-swift-version", "-enable-upcoming-feature", "-target", "-package-name", "-Xcc"}
KEPT_ALONE = re.compile(r"^-D[A-Z_]+$")


class Build:
    def __init__(self, bin_path, flags, package_name):
        self.bin_path = bin_path
        self.modules = os.path.join(bin_path, "Modules")
        self.flags = flags
        self.package_name = package_name
        # What `swift-symbolgraph-extract` takes of them: the target and the C flags.
        self.extract_flags = []
        for index in range(0, len(flags) - 1):
            if flags[index] in ("-target", "-Xcc"):
                self.extract_flags += [flags[index], flags[index + 1]]


def fail(message):
    sys.exit(f"{os.path.basename(sys.argv[0])}: {message}")


def ensure(targets):
    """Builds `targets` (a no-op when CI's build made them) through Scripts/checked-build, so a
    warning in what it compiles fails here too; returns the build."""
    os.makedirs(os.path.join(ROOT, ".build"), exist_ok=True)
    for target in targets:
        log = os.path.join(ROOT, ".build", f"debug-build-{target}.log")
        built = subprocess.run(
            [os.path.join(ROOT, "Scripts", "checked-build"), log, "--", "swift", "build", "--target", target],
            cwd=ROOT, capture_output=True, text=True,
        )
        if built.returncode != 0:
            sys.stdout.write(built.stdout + built.stderr)
            fail(f"the debug build of {target} failed (above).")
    bin_path = subprocess.run(
        ["swift", "build", "--show-bin-path"], cwd=ROOT, check=True, capture_output=True, text=True
    ).stdout.strip()
    return Build(bin_path, *flags_of(bin_path))


def flags_of(bin_path):
    """The flags SwiftPM compiles `REFERENCE_TARGET` with that a client module needs too, and the
    package name, from the build plan next to the build folder."""
    plan = os.path.join(os.path.dirname(os.path.dirname(bin_path)), "debug.yaml")
    if not os.path.exists(plan):
        plan = os.path.join(os.path.dirname(bin_path), "debug.yaml")
    try:
        with open(plan, encoding="utf-8") as handle:
            text = handle.read()
    except OSError:
        fail(f"no build plan at {plan}: SwiftPM keeps it elsewhere now; update Scripts/debug_build.py.")
    block = re.search(r'"C\.' + REFERENCE_TARGET + r'-[^"]*-debug\.module":\n(.*?)\n\n', text + "\n\n", re.S)
    arguments = re.search(r"^\s*args: (\[.*\])$", block.group(1), re.M) if block else None
    if not arguments:
        fail(f"the build plan {plan} has no compile command for {REFERENCE_TARGET}; update Scripts/debug_build.py.")
    command = json.loads(arguments.group(1))
    flags, package_name = [], None
    index = 1
    while index < len(command):
        argument = command[index]
        if argument in KEPT_WITH_VALUE and index + 1 < len(command):
            value = command[index + 1]
            if argument == "-package-name":
                package_name = value
            else:
                flags += [argument, value]
            index += 2
            continue
        if KEPT_ALONE.match(argument):
            flags.append(argument)
        index += 1
    if package_name is None or "-swift-version" not in flags:
        fail(f"the compile command of {REFERENCE_TARGET} in {plan} has no -package-name or -swift-version; update Scripts/debug_build.py.")
    return flags, package_name
