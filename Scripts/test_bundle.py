"""Runs tests of the package's test bundle directly, as `swift test --skip-build --filter` does.

`swift test` spends about three seconds starting up (it loads the package and plans the build)
before it runs the bundle, `<build>/debug/ComposePackageTests.xctest`, once for Swift Testing and
once for XCTest. Scripts that run the bundle many times (Scripts/mutate, Scripts/sanitize) run it
themselves: Swift Testing's tests with the same `--filter` expression, and the XCTest cases the
expression matches, by name (the XCTest runner takes names, not expressions), which is what
`swift test` does. Not run by hand.
"""

import re
import subprocess
import sys


def bundle(build_directory):
    """The test bundle of a build directory (`.build`, `.build-tsan`, ...)."""
    return f"{build_directory}/debug/ComposePackageTests.xctest"


def xctest_cases(bundle_path, cwd):
    """Every XCTest case of the bundle, `Module.Class/testName`."""
    listed = subprocess.run([bundle_path, "--testing-library", "xctest", "--list-tests"], cwd=cwd, capture_output=True, text=True)
    if listed.returncode != 0:
        sys.exit(f"{bundle_path} --list-tests failed:\n{listed.stdout}{listed.stderr}")
    cases = [line.strip() for line in listed.stdout.splitlines() if re.fullmatch(r"\S+\.\S+/\S+", line.strip())]
    if not cases:
        sys.exit(f"{bundle_path} lists no XCTest case: how it lists them changed.")
    return cases


def commands(bundle_path, expression, cases, named=None):
    """The runs of the bundle that `swift test --filter EXPRESSION` makes: Swift Testing's, unless
    every test named (when the caller knows them, from `swift test list`) is an XCTest case, and
    XCTest's, when the expression matches a case."""
    runs = []
    matched = [case for case in cases if re.search(expression, case)]
    if named is None or any(test not in matched for test in named):
        runs.append([bundle_path, "--testing-library", "swift-testing", "--filter", expression])
    if matched:
        runs.append([bundle_path, "--testing-library", "xctest", ",".join(matched)])
    return runs
