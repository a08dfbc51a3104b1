// The soak: drives a component tree with stores, refs, routers and autosave through random user
// actions, checking every invariant along the way, and fails if any breaks or if the heap at the
// end is more than 10% above the heap after the first 1,000 actions.
//
//   swift run ComposeSoak                       # 100,000 actions, seed 2026
//   swift run ComposeSoak --actions 20000 --seed 7

import ComposeSoakApp
import Foundation

#if canImport(Glibc)
import Glibc

// glibc keeps blocks freed by a thread in that thread's cache (tcache) and counts them as in use,
// so the heap the soak reads moved by tens of kilobytes with how many threads Dispatch happened
// to use for autosave. Run without the cache: what is counted is then what is allocated.
// `GLIBC_TUNABLES` is read at startup only, hence the re-exec; if it fails, the soak runs anyway.
let tunable = "glibc.malloc.tcache_count=0"
let tunables = ProcessInfo.processInfo.environment["GLIBC_TUNABLES"]
if tunables?.contains(tunable) != true {
    setenv("GLIBC_TUNABLES", tunables.map { "\($0):\(tunable)" } ?? tunable, 1)
    execv("/proc/self/exe", CommandLine.unsafeArgv)
}
#endif

var configuration = Soak.Configuration()
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch (argument, arguments.popFirst().flatMap { Int($0) }) {
    case ("--actions", let value?) where value >= 1: configuration.actions = value
    case ("--seed", let value?) where value >= 0: configuration.seed = UInt64(value)
    case ("--flush-every", let value?) where value >= 1: configuration.flushEvery = value
    default:
        print("usage: ComposeSoak [--actions N] [--seed S] [--flush-every N]")
        exit(2)
    }
}
configuration.baselineAction = min(configuration.baselineAction, configuration.actions)

let started = ContinuousClock.now
let report = await Soak.run(configuration) { print($0) }
print(report)
print("took \(ContinuousClock.now - started)")
let limit = 0.10
if !report.failures.isEmpty {
    print("FAILED: invariants broke")
    exit(1)
}
if report.heapAtBaseline == 0 {
    print("(the heap cannot be measured on this platform)")
} else if report.heapGrowth > limit {
    print("FAILED: the heap grew by more than \(Int(limit * 100))% after the baseline")
    exit(1)
}
print("PASSED")
