#!/usr/bin/env python3
"""Checks, or records, the allocations per operation of Compose's benchmark scenarios.

    bench-thresholds.py check  <results.jmh.json> <thresholds directory>
    bench-thresholds.py update <results.jmh.json> <thresholds directory>
    bench-thresholds.py --self-test    # the check on made-up results (CI runs it)

`Scripts/bench --check` and `--update-thresholds` run it after a run of every "/Compose" variant
with only the allocation counter. The thresholds are one JSON file per module
(`Benchmarks/Thresholds/Store.json`), scenario name to allocations per operation: the median
iteration's `malloc` calls divided by the operations one iteration performs (its "ops" tag). The
count is deterministic: it does not depend on the machine's speed or load.

`check` fails, naming each scenario, when a scenario allocates more than its threshold (beyond 1%
and two allocations per iteration, the harness's own jitter), when a measured scenario has no
threshold, or when a threshold names a scenario the run did not measure (renamed or removed; a
run restricted by --filter skips this last check). A scenario that allocates less is reported,
not failed: `update` records the new figure.
"""
import importlib.util
import json
import os
import sys

spec = importlib.util.spec_from_file_location(
    "bench_table", os.path.join(os.path.dirname(os.path.abspath(__file__)), "bench-table.py"))
bench_table = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bench_table)


def measured(path):
    """Scenario name to (allocations per operation, operations per iteration)."""
    figures = {}
    for name, result in bench_table.parse(path).items():
        per_op = result["mallocs_per_op"]
        if per_op is None:
            sys.exit(f"bench-thresholds: {name} has no allocation count in {path}")
        figures[name] = (per_op, result["ops"])
    return figures


def module_of(name):
    return name.split("/", 1)[0]


def load(directory):
    thresholds = {}
    if os.path.isdir(directory):
        for file in sorted(os.listdir(directory)):
            if file.endswith(".json"):
                with open(os.path.join(directory, file)) as handle:
                    thresholds.update(json.load(handle))
    return thresholds


def update(figures, directory):
    os.makedirs(directory, exist_ok=True)
    modules = sorted({module_of(name) for name in figures})
    for module in modules:
        path = os.path.join(directory, f"{module}.json")
        recorded = {}
        if os.path.exists(path):
            with open(path) as handle:
                recorded = json.load(handle)
        for name, (per_op, _) in figures.items():
            if module_of(name) == module:
                recorded[name] = round(per_op, 4)
        with open(path, "w") as handle:
            json.dump(dict(sorted(recorded.items())), handle, indent=2, ensure_ascii=False)
            handle.write("\n")
        print(f"Wrote {path}")


def check(figures, directory, filtered):
    thresholds = load(directory)
    failures, improvements = [], []
    for name, (per_op, ops) in sorted(figures.items()):
        if name not in thresholds:
            failures.append(f"{name}: no threshold recorded ({per_op:.4f} allocations per operation measured)")
            continue
        limit = thresholds[name]
        slack = limit * 0.01 + 2 / ops
        if per_op > limit + slack:
            failures.append(f"{name}: {per_op:.4f} allocations per operation, threshold {limit}")
        elif per_op < limit - slack:
            improvements.append(f"{name}: {per_op:.4f} allocations per operation, threshold {limit}")
    if not filtered:
        for name in sorted(set(thresholds) - set(figures)):
            failures.append(f"{name}: has a threshold but was not measured (renamed or removed?)")
    for line in improvements:
        print(f"lower than its threshold: {line}")
    if improvements:
        print("Record the lower figures with Scripts/bench --update-thresholds.")
    if failures:
        for line in failures:
            print(f"FAILED {line}")
        print(f"{len(failures)} scenario(s) failed the allocation thresholds in Benchmarks/Thresholds/.")
        print("If the change is intended, record it with Scripts/bench --update-thresholds and say why in the commit.")
        sys.exit(1)
    print(f"{len(figures)} scenarios within their allocation thresholds.")


def self_test():
    """Checks the check on made-up results: within, over, under and without a threshold."""
    import subprocess
    import tempfile

    def run(mallocs, thresholds, filtered=False):
        with tempfile.TemporaryDirectory() as directory:
            results = os.path.join(directory, "results.jmh.json")
            runs = [{
                "benchmark": f"package.benchmark.ComposeBenchmarks.{name.replace(' ', '_')}_(ops:_1000,_unit:_writes)",
                "primaryMetric": {"scorePercentiles": {"50.0": 1000}},
                "secondaryMetrics": {"Malloc (total)": {"scorePercentiles": {"50.0": count}}},
            } for name, count in mallocs.items()]
            with open(results, "w") as handle:
                json.dump(runs, handle)
            os.makedirs(os.path.join(directory, "Thresholds"))
            with open(os.path.join(directory, "Thresholds", "Store.json"), "w") as handle:
                json.dump(thresholds, handle)
            arguments = [sys.executable, __file__, "check", results, os.path.join(directory, "Thresholds")]
            done = subprocess.run(arguments + (["--filtered"] if filtered else []), capture_output=True, text=True)
            return done.returncode, done.stdout

    name = "Store/a write/Compose"
    cases = [
        ("within its threshold", {name: 1000}, {name: 1.0}, False, 0, "within"),
        ("over it by more than the slack", {name: 1100}, {name: 1.0}, False, 1, f"FAILED {name}"),
        ("under it", {name: 500}, {name: 1.0}, False, 0, "lower than its threshold"),
        ("without a threshold", {name: 1000}, {}, False, 1, "no threshold recorded"),
        ("a threshold not measured", {name: 1000}, {name: 1.0, "Store/gone/Compose": 1.0}, False, 1, "not measured"),
        ("a threshold not measured, filtered", {name: 1000}, {name: 1.0, "Store/gone/Compose": 1.0}, True, 0, "within"),
    ]
    for label, mallocs, thresholds, filtered, status, text in cases:
        code, output = run(mallocs, thresholds, filtered)
        if code != status or text not in output:
            sys.exit(f"bench-thresholds self-test: {label}: exit {code}, output:\n{output}")
    print(f"bench-thresholds self-test: {len(cases)} cases pass.")


def main():
    if sys.argv[1:] == ["--self-test"]:
        self_test()
        return
    if len(sys.argv) not in (4, 5) or sys.argv[1] not in ("check", "update"):
        sys.exit(__doc__)
    mode, path, directory = sys.argv[1:4]
    filtered = len(sys.argv) == 5 and sys.argv[4] == "--filtered"
    figures = measured(path)
    if mode == "update":
        update(figures, directory)
    else:
        check(figures, directory, filtered)


if __name__ == "__main__":
    main()
