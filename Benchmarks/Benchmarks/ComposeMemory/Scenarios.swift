import ComposeEmitters
import ComposeStore
import HeapStats
import OpenCombine

// `SmallState` and `SmallModel` are generated, with the benchmark executable's, by
// Scripts/generate-benchmark-states (Generated/States.swift).

/// Keeps `value` from being optimized away.
@inline(never)
func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}

/// The heap bytes one result of `make` costs: the median of five runs, each making 1,000 kept
/// objects.
func bytesEach<Object>(_ make: () -> Object) -> Int {
    let count = 1_000
    var runs: [Int] = []
    for _ in 0..<5 {
        var kept: [Object] = []
        kept.reserveCapacity(count)
        let before = compose_heap_bytes_in_use()
        for _ in 0..<count { kept.append(make()) }
        let after = compose_heap_bytes_in_use()
        blackHole(kept)
        runs.append((Int(after) - Int(before)) / count)
    }
    return runs.sorted()[runs.count / 2]
}

/// Every scenario. Declared outside `main.swift`, whose top-level code is main-actor code: a handler
/// written there would be main-actor isolated. The plain rows use nonisolated handlers, as
/// library code writes them; the "main-actor handler" rows, handlers written in main-actor code,
/// as an app's are, which the store or emitter calls through a `Relay` on the main actor.
let scenarios: [(name: String, measure: @Sendable () -> Int)] = [
    ("Memory/store of 10 Int fields/Compose", { bytesEach { Store<SmallState>() } }),
    ("Memory/store of 10 Int fields/Observation", { bytesEach { SmallModel() } }),
    (
        "Memory/emitter subscriber/Compose",
        {
            let emitter = ValueEmitter<Int>()
            defer { blackHole(emitter) }
            return bytesEach { emitter += { blackHole($0) } }
        }
    ),
    ("Memory/emitter subscriber, main-actor handler/Compose", { mainActorSubscriberBytes() }),
    // Part of every subscriber, before any emitter sees it: the handler itself, the closure
    // `emitter += { blackHole($0) }` passes. An `@isolated(any)` function keeps its isolation in
    // its context, so even a closure that captures nothing is formed with one on the heap.
    (
        "Memory/emitter subscriber/its handler alone",
        { bytesEach { () -> @isolated(any) @Sendable (Int) -> Void in { blackHole($0) } } }
    ),
    // The peer as its users write it: a sink on a subject, kept as its `AnyCancellable`.
    (
        "Memory/emitter subscriber/OpenCombine",
        {
            let subject = PassthroughSubject<Int, Never>()
            defer { blackHole(subject) }
            return bytesEach { subject.sink { blackHole($0) } }
        }
    ),
    (
        "Memory/keypath observer/Compose",
        {
            let store = Store<SmallState>()
            defer { blackHole(store) }
            var field = 0
            return bytesEach { () -> EmitterSubscription in
                field = (field + 1) % SmallState.keyPaths.count
                return store.observe(SmallState.keyPaths[field]) { blackHole($0) }
            }
        }
    ),
    ("Memory/keypath observer, main-actor handler/Compose", { mainActorObserverBytes() }),
]

/// An emitter subscriber whose handler is written in main-actor code.
@MainActor
func mainActorSubscriber(_ emitter: ValueEmitter<Int>) -> EmitterSubscription {
    emitter += { blackHole($0) }
}

/// A keypath observer whose handler is written in main-actor code.
@MainActor
func mainActorObserver(_ store: Store<SmallState>, field: Int) -> EmitterSubscription {
    store.observe(SmallState.keyPaths[field]) { blackHole($0) }
}

func mainActorSubscriberBytes() -> Int {
    MainActor.assumeIsolated {
        let emitter = ValueEmitter<Int>()
        defer { blackHole(emitter) }
        return bytesEach { mainActorSubscriber(emitter) }
    }
}

func mainActorObserverBytes() -> Int {
    MainActor.assumeIsolated {
        let store = Store<SmallState>()
        defer { blackHole(store) }
        var field = 0
        return bytesEach { () -> EmitterSubscription in
            field = (field + 1) % SmallState.keyPaths.count
            return mainActorObserver(store, field: field)
        }
    }
}
