import Benchmark
import ComposeStore
import Observation
import OpenCombine

/// Store-diffing scenarios: K keypath subscribers spread over the fields of a state, each
/// mutation changing one field, written through a key path or as a whole state. Peers in the
/// same run: OpenCombine's `CurrentValueSubject` with `map(keyPath).removeDuplicates()` per
/// subscriber (the TCA/ViewStore idiom), and an `@Observable` class with one
/// `withObservationTracking` per subscriber.
func storeBenchmarks() {
    for subscribers in [1, 100, 10_000] {
        diffing(
            "1,000 fields K=\(subscribers)", LargeState.self, LargeModel.self,
            keyPaths: LargeState.keyPaths, modelKeyPaths: LargeModel.keyPaths, subscribers: subscribers
        )
    }
    diffing(
        "10 fields K=10", SmallState.self, SmallModel.self,
        keyPaths: SmallState.keyPaths, modelKeyPaths: SmallModel.keyPaths, subscribers: 10
    )
    // Calibration: the hand expansion of @Observable that the 1,000-field peer uses, beside the
    // real macro on the same 10 fields.
    observationPeer(
        "10 fields K=10", SmallRegistrarModel.self, variant: "Observation (expanded by hand)",
        keyPaths: SmallRegistrarModel.keyPaths, subscribers: 10, mutations: 1_000
    )
    unobservedMutations()
}

/// A counter the benchmark closures can bump: every mutation writes a new value.
private final class Counter: @unchecked Sendable {
    var value = 0
    func next() -> Int {
        value &+= 1
        return value
    }
}

/// The `@Observable` classes of the Observation peer (generated in Generated/States.swift).
protocol ObservableBenchmarkModel: Observable, AnyObject, Sendable {
    init()
}

private func diffing<State: AnyState, Model: ObservableBenchmarkModel>(
    _ name: String,
    _: State.Type,
    _: Model.Type,
    keyPaths: [any WritableKeyPath<State, Int> & Sendable],
    modelKeyPaths: [ReferenceWritableKeyPath<Model, Int>],
    subscribers: Int
) {
    let fields = keyPaths.count
    // Enough mutations per iteration to time, fewer for the peers that pay per subscriber.
    let mutations = 1_000
    let peerMutations = subscribers >= 10_000 ? 10 : (subscribers >= 100 ? 100 : 1_000)
    let counter = Counter()

    // Compose
    let store = Store<State>()
    for subscriber in 0..<subscribers {
        store.observe(keyPaths[subscriber % fields]) { blackHole($0) }
    }
    Benchmark(
        "Store/\(name) keypath write/Compose",
        configuration: scenario(ops: mutations, unit: "mutations")
    ) { _ in
        for mutation in 0..<mutations {
            store[dynamicMember: keyPaths[mutation % fields]] = counter.next()
        }
    }
    Benchmark(
        "Store/\(name) whole-state write/Compose",
        configuration: scenario(ops: mutations, unit: "mutations")
    ) { _ in
        for mutation in 0..<mutations {
            store.state[keyPath: keyPaths[mutation % fields]] = counter.next()
        }
    }

    // OpenCombine: CurrentValueSubject + map(keyPath) + removeDuplicates per subscriber.
    let subject = CurrentValueSubject<State, Never>(State())
    let cancellables = (0..<subscribers).map { subscriber in
        subject.map(keyPaths[subscriber % fields]).removeDuplicates().sink { blackHole($0) }
    }
    Benchmark(
        "Store/\(name) keypath write/OpenCombine",
        configuration: scenario(ops: peerMutations, unit: "mutations")
    ) { _ in
        for mutation in 0..<peerMutations {
            subject.value[keyPath: keyPaths[mutation % fields]] = counter.next()
        }
        blackHole(cancellables)
    }
    Benchmark(
        "Store/\(name) whole-state write/OpenCombine",
        configuration: scenario(ops: peerMutations, unit: "mutations")
    ) { _ in
        for mutation in 0..<peerMutations {
            var state = subject.value
            state[keyPath: keyPaths[mutation % fields]] = counter.next()
            subject.send(state)
        }
        blackHole(cancellables)
    }

    observationPeer(
        name, Model.self, variant: "Observation", keyPaths: modelKeyPaths, subscribers: subscribers,
        mutations: peerMutations
    )
}

/// Observation: an @Observable class (or its expansion), one withObservationTracking per
/// subscriber, tracking again each time it fires (as a view does when it re-renders).
private func observationPeer<Model: ObservableBenchmarkModel>(
    _ name: String,
    _: Model.Type,
    variant: String,
    keyPaths: [ReferenceWritableKeyPath<Model, Int>],
    subscribers: Int,
    mutations: Int
) {
    let counter = Counter()
    let model = Model()
    let trackers = (0..<subscribers).map { subscriber in
        ObservationTracker(model: model, keyPath: keyPaths[subscriber % keyPaths.count])
    }
    Benchmark(
        "Store/\(name) property write/\(variant)",
        configuration: scenario(ops: mutations, unit: "mutations")
    ) { _ in
        for mutation in 0..<mutations {
            model[keyPath: keyPaths[mutation % keyPaths.count]] = counter.next()
        }
        blackHole(trackers)
    }
}

/// One subscriber of the Observation peer: tracks one property, and tracks again when it fires.
private final class ObservationTracker<Model: ObservableBenchmarkModel>: @unchecked Sendable {
    let model: Model
    let keyPath: ReferenceWritableKeyPath<Model, Int>

    init(model: Model, keyPath: ReferenceWritableKeyPath<Model, Int>) {
        self.model = model
        self.keyPath = keyPath
        track()
    }

    func track() {
        withObservationTracking {
            blackHole(model[keyPath: keyPath])
        } onChange: { [self] in
            track()
        }
    }
}

/// Mutations that change a field nobody observes: the store allocates nothing for them.
private func unobservedMutations() {
    let mutations = 1_000
    let counter = Counter()
    let store = Store<LargeState>()
    // 100 subscribers on fields 0..<100; the mutations write fields 500..<1,000.
    for field in 0..<100 {
        store.observe(LargeState.keyPaths[field]) { blackHole($0) }
    }
    Benchmark(
        "Store/1,000 fields unobserved keypath write/Compose",
        configuration: scenario(ops: mutations, unit: "mutations")
    ) { _ in
        for mutation in 0..<mutations {
            store[dynamicMember: LargeState.keyPaths[500 + mutation % 500]] = counter.next()
        }
    }
    Benchmark(
        "Store/1,000 fields unobserved whole-state write/Compose",
        configuration: scenario(ops: mutations, unit: "mutations")
    ) { _ in
        for mutation in 0..<mutations {
            store.state[keyPath: LargeState.keyPaths[500 + mutation % 500]] = counter.next()
        }
    }
}
