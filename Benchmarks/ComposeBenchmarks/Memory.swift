import Benchmark
import ComposeEmitters
import ComposeStore
import HeapStats
import Observation
import OpenCombine

/// Memory scenarios: the heap bytes one object costs, measured as the C allocator's bytes in use
/// before and after making 1,000 of them (kept alive), divided by 1,000. Chunk headers and
/// rounding included, since they are what a process pays. Reported as the custom metric "bytes".
func memoryBenchmarks() {
    let bytes = BenchmarkMetric.custom("bytes", polarity: .prefersSmaller, useScalingFactor: false)
    var configuration = scenario(ops: 1, unit: "objects")
    configuration.metrics = [.wallClock, .throughput, bytes]
    configuration.maxIterations = 20

    Benchmark("Memory/store of 10 Int fields/Compose", configuration: configuration) { benchmark in
        benchmark.measurement(bytes, bytesEach { Store<SmallState>() })
    }
    Benchmark("Memory/store of 10 Int fields/Observation", configuration: configuration) { benchmark in
        benchmark.measurement(bytes, bytesEach { SmallModel() })
    }

    Benchmark("Memory/emitter subscriber/Compose", configuration: configuration) { benchmark in
        let emitter = ValueEmitter<Int>()
        benchmark.measurement(bytes, bytesEach { emitter += { blackHole($0) } })
        blackHole(emitter)
    }

    // The peer as its users write it: a sink on a subject, kept as its `AnyCancellable`.
    Benchmark("Memory/emitter subscriber/OpenCombine", configuration: configuration) { benchmark in
        let subject = PassthroughSubject<Int, Never>()
        benchmark.measurement(bytes, bytesEach { subject.sink { blackHole($0) } })
        blackHole(subject)
    }

    Benchmark("Memory/keypath observer/Compose", configuration: configuration) { benchmark in
        let store = Store<SmallState>()
        var field = 0
        benchmark.measurement(
            bytes,
            bytesEach { () -> EmitterSubscription in
                field = (field + 1) % SmallState.keyPaths.count
                return store.observe(SmallState.keyPaths[field]) { blackHole($0) }
            })
        blackHole(store)
    }
}

/// The heap bytes one result of `make` costs: 1,000 made and kept, in an array reserved
/// beforehand (whose own bytes are not counted).
private func bytesEach<Object>(_ make: () -> Object) -> Int {
    let count = 1_000
    var kept: [Object] = []
    kept.reserveCapacity(count)
    let before = compose_heap_bytes_in_use()
    for _ in 0..<count { kept.append(make()) }
    let after = compose_heap_bytes_in_use()
    blackHole(kept)
    return (Int(after) - Int(before)) / count
}
