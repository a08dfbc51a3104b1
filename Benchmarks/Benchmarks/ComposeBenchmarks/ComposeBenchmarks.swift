import Benchmark
import Foundation

// The benchmark executable: every scenario of every module, with its peers measured in the same
// run. `Scripts/bench` runs it and prints our figure, the peer's and the ratio per scenario.
//
// Naming: "<Module>/<scenario>/<variant>", where the variant is "Compose" or the peer's name.
// Tags: "ops" is the number of logical operations one iteration performs, "unit" what an
// operation is; Scripts/bench divides by them to report operations per second.

let benchmarks: @Sendable () -> Void = {
    // `Scripts/bench --check` sets COMPOSE_BENCH_ITERATIONS: it reads only the allocation counter,
    // which is the same every iteration, so a few iterations do.
    let iterations = ProcessInfo.processInfo.environment["COMPOSE_BENCH_ITERATIONS"].flatMap { Int($0) }
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal],
        warmupIterations: iterations == nil ? 5 : 1,
        maxDuration: .seconds(1),
        maxIterations: iterations ?? 10_000
    )
    emitterBenchmarks()
    storeBenchmarks()
    validationBenchmarks()
    persistenceBenchmarks()
    refsBenchmarks()
    diffBenchmarks()
    componentBenchmarks()
    routingBenchmarks()
    sessionBenchmarks()
}

/// The configuration of a benchmark whose iteration performs `ops` operations of kind `unit`.
func scenario(ops: Int, unit: String) -> Benchmark.Configuration {
    var configuration = Benchmark.defaultConfiguration
    configuration.tags = ["ops": String(ops), "unit": unit]
    return configuration
}
