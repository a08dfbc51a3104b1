"""What decides whether a mutant is caught, and the record of what each one was last caught with.

Scripts/mutate records, for every mutant its tests killed, a digest of the files that decide
that outcome, in `Scripts/mutants/killed-with.txt` (one `<mutant> <digest>` line each; commit it
with the change that made it). `Scripts/mutate --unverified` (what CI runs) runs only the mutants
whose digest differs from the recorded one, or that have none; the others were caught by the
same tests against the same code.

A mutant's inputs are:
- its patch;
- every file of each module the patch edits (`Modules/<Module>/`);
- every file of each test target its `Tests:` filter names a test of (`Tests/<Target>/`);
- every file of ComposeMachinery, which every module stands on, and of Tests/Support, which
  every test target uses; Package.swift; the scripts that plant, build and run the mutants;
- the toolchain (`swift --version`).
A change anywhere else (another module, another test target, the docs) does not run it again.
That is a choice, not a proof: a change in a module between the patched one and the tests (the
store, for a mutant of the emitters tested through components) can change the outcome without
changing the digest, and CI then relies on the next full run (`Scripts/mutate` with no flag) to
see it.

`python3 Scripts/mutant_inputs.py --self-test` checks these rules on a made-up repository (CI
runs it).
"""

import hashlib
import os
import re
import subprocess
import sys
import tempfile

RECORD = os.path.join("Scripts", "mutants", "killed-with.txt")
ALWAYS = [
    os.path.join("Modules", "ComposeMachinery"),
    os.path.join("Tests", "Support"),
    "Package.swift",
    os.path.join("Scripts", "mutate"),
    os.path.join("Scripts", "mutant_inputs.py"),
    os.path.join("Scripts", "test_bundle.py"),
]


def patched_modules(patch_text):
    """The modules a patch edits, from its `diff --git a/Modules/<Module>/...` lines."""
    return sorted(set(re.findall(r"^diff --git a/Modules/([^/]+)/", patch_text, flags=re.M)))


def files_under(root, relative):
    """Every file at or under `relative` (a file or a folder), as paths relative to `root`, sorted."""
    full = os.path.join(root, relative)
    if os.path.isfile(full):
        return [relative]
    found = []
    for folder, folders, names in os.walk(full):
        folders.sort()
        found += [os.path.relpath(os.path.join(folder, name), root) for name in sorted(names)]
    return found


def inputs(root, patch, test_targets):
    """The files that decide mutant `patch`'s outcome (see the top of this file), sorted."""
    with open(os.path.join(root, patch), encoding="utf-8") as handle:
        modules = patched_modules(handle.read())
    places = [patch] + [os.path.join("Modules", module) for module in modules]
    places += [os.path.join("Tests", target) for target in sorted(set(test_targets))] + ALWAYS
    return sorted({path for place in places for path in files_under(root, place)})


def digest(root, files, toolchain):
    """A digest of `files`' paths and contents, and of the toolchain's description."""
    hashed = hashlib.sha256(toolchain.encode())
    for path in files:
        hashed.update(b"\0" + path.encode() + b"\0")
        with open(os.path.join(root, path), "rb") as handle:
            hashed.update(hashlib.sha256(handle.read()).digest())
    return hashed.hexdigest()[:20]


def toolchain():
    """`swift --version`, which names the compiler and the standard library."""
    return subprocess.run(["swift", "--version"], capture_output=True, text=True).stdout.strip()


def read_record(root):
    """The recorded digests, by mutant (file name without `.patch`); empty if there is no record."""
    path = os.path.join(root, RECORD)
    if not os.path.exists(path):
        return {}
    with open(path, encoding="utf-8") as handle:
        return dict(line.split() for line in handle if line.strip())


def write_record(root, record):
    """Writes the record, sorted, one mutant per line."""
    with open(os.path.join(root, RECORD), "w", encoding="utf-8") as handle:
        for name in sorted(record):
            handle.write(f"{name} {record[name]}\n")


def self_test():
    """Checks which changes to a made-up repository change a mutant's digest."""
    with tempfile.TemporaryDirectory() as root:
        def write(path, text):
            os.makedirs(os.path.dirname(os.path.join(root, path)) or root, exist_ok=True)
            with open(os.path.join(root, path), "w", encoding="utf-8") as handle:
                handle.write(text)

        patch = os.path.join("Scripts", "mutants", "store-bug.patch")
        write(patch, "Promise: p\nTests: \\.CommitTests/\ndiff --git a/Modules/ComposeStore/Commit.swift b/Modules/ComposeStore/Commit.swift\n")
        for path in ["Modules/ComposeStore/Commit.swift", "Modules/ComposeStore/Sub/Deep.swift",
                     "Modules/ComposeRouting/Router.swift", "Modules/ComposeMachinery/Lock.swift",
                     "Tests/ComposeStoreTests/CommitTests.swift", "Tests/ComposeRoutingTests/RouterTests.swift",
                     "Tests/Support/Recorder.swift", "Package.swift", "Scripts/mutate", "Scripts/mutant_inputs.py",
                     "Scripts/test_bundle.py", "README.md"]:
            write(path, "original\n")

        def current(targets=("ComposeStoreTests",), swift="Swift version 6.3.1"):
            return digest(root, inputs(root, patch, list(targets)), swift)

        baseline = current()
        cases = [
            ("the patched module", "Modules/ComposeStore/Commit.swift", True),
            ("a file deeper in the patched module", "Modules/ComposeStore/Sub/Deep.swift", True),
            ("ComposeMachinery", "Modules/ComposeMachinery/Lock.swift", True),
            ("the named tests' target", "Tests/ComposeStoreTests/CommitTests.swift", True),
            ("Tests/Support", "Tests/Support/Recorder.swift", True),
            ("Package.swift", "Package.swift", True),
            ("the mutant's patch", patch, True),
            ("the script that runs mutants", "Scripts/mutate", True),
            ("another module", "Modules/ComposeRouting/Router.swift", False),
            ("another test target", "Tests/ComposeRoutingTests/RouterTests.swift", False),
            ("the docs", "README.md", False),
        ]
        failures = []
        for what, path, reruns in cases:
            with open(os.path.join(root, path), encoding="utf-8") as handle:
                before = handle.read()
            write(path, before + "changed\n")
            if (current() != baseline) != reruns:
                failures.append(f"a change to {what} ({path}) should {'' if reruns else 'not '}run the mutant again")
            write(path, before)
        write("Modules/ComposeStore/New.swift", "added\n")
        if current() == baseline:
            failures.append("a file added to the patched module should run the mutant again")
        os.remove(os.path.join(root, "Modules/ComposeStore/New.swift"))
        if current(swift="Swift version 6.4") == baseline:
            failures.append("another toolchain should run the mutant again")
        if current(targets=("ComposeStoreTests", "ComposeRoutingTests")) == baseline:
            failures.append("a filter that names tests of another target should run the mutant again")
        if current() != baseline:
            failures.append("the digest of unchanged files changed")
        write_record(root, {"store-bug": baseline, "a-bug": "0"})
        if read_record(root) != {"store-bug": baseline, "a-bug": "0"}:
            failures.append("the record does not read back as written")
    if failures:
        sys.exit("mutant_inputs self-test failed:\n" + "\n".join(failures))
    print(f"mutant_inputs self-test: {len(cases) + 5} cases pass.")


if __name__ == "__main__":
    if sys.argv[1:] != ["--self-test"]:
        sys.exit("usage: python3 Scripts/mutant_inputs.py --self-test (the rest is used by Scripts/mutate)")
    self_test()
