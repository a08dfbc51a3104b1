import Benchmark
import ComposeStore
import Observation
import OpenCombine

/// Store scenarios: K observers spread over the fields of a state, each write changing one
/// field picked at random (the same seeded sequence for every contender), written the way an app
/// writes it: `$state.fieldN = value` (keyed) and `state.fieldN = value` (whole state) for Compose,
/// `model.fieldN = value` for an `@Observable` class with one `withObservationTracking` per
/// observer (tracking again when it fires, as a view does), and `subject.value.fieldN = value`
/// for OpenCombine's `CurrentValueSubject` with `map(keyPath).removeDuplicates().sink` per
/// observer (the TCA/ViewStore idiom).
///
/// Every contender's observers bump one counter, and every iteration checks that it made exactly
/// the observer calls the sequence implies: the contenders do the same work.
func storeBenchmarks() {
    for observers in [1, 100, 10_000] {
        fieldWrites(
            "1,000 fields K=\(observers)", LargeState.self, LargeModel.self, fields: 1_000, observers: observers,
            keyedWrite: { $0.keyedWrite(field: $1, value: $2) },
            wholeStateWrite: { $0.wholeStateWrite(field: $1, value: $2) },
            subjectWrite: { $0.write(field: $1, value: $2) },
            keyPaths: LargeState.keyPaths
        )
    }
    fieldWrites(
        "10 fields K=10", SmallState.self, SmallModel.self, fields: 10, observers: 10,
        keyedWrite: { $0.keyedWrite(field: $1, value: $2) },
        wholeStateWrite: { $0.wholeStateWrite(field: $1, value: $2) },
        subjectWrite: { $0.write(field: $1, value: $2) },
        keyPaths: SmallState.keyPaths
    )
    // Calibration: the hand expansion of @Observable that the 1,000-field peer uses, beside the
    // real macro on the same 10 fields.
    observationPeer(
        "10 fields K=10", SmallExpandedModel.self, variant: "Observation (expanded by hand)",
        plan: WritePlan(fields: 10, observers: 10, writes: 1_000, seed: 10)
    )
    unobservedMutations()
    appStateWrites()
}

/// A counter the benchmark closures can bump: every write writes a new value.
final class Counter: @unchecked Sendable {
    var value = 0
    func next() -> Int {
        value &+= 1
        return value
    }
}

/// The observer calls of one contender, bumped by each of its observers.
final class Calls: @unchecked Sendable {
    var count = 0
}

/// Which field each write of an iteration changes, and how many observer calls that must make.
struct WritePlan {
    /// The field of each write, drawn at random once (seeded).
    let fields: [Int]
    /// Observer `i` observes field `i % fieldCount`.
    let observersPerField: [Int]

    init(fields fieldCount: Int, observers: Int, writes: Int, seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        fields = (0..<writes).map { _ in Int.random(in: 0..<fieldCount, using: &generator) }
        observersPerField = (0..<fieldCount).map { field in
            observers / fieldCount + (field < observers % fieldCount ? 1 : 0)
        }
    }

    /// The field of observer `index`.
    func field(ofObserver index: Int) -> Int {
        index % observersPerField.count
    }

    /// The observer calls the first `writes` writes make: every write changes its field.
    func expectedCalls(writes: Int) -> Int {
        fields.prefix(writes).reduce(0) { $0 + observersPerField[$1] }
    }
}

/// Performs `writes` writes of `plan` and checks the observer calls they made.
@inline(__always)
func perform(_ plan: WritePlan, writes: Int, calls: Calls, counter: Counter, _ write: (Int, Int) -> Void) {
    let before = calls.count
    for index in 0..<writes {
        write(plan.fields[index], counter.next())
    }
    let made = calls.count - before
    let expected = plan.expectedCalls(writes: writes)
    precondition(made == expected, "made \(made) observer calls, not \(expected): the contenders must do the same work")
}

private func fieldWrites<State: AnyState, Model: ObservableBenchmarkModel>(
    _ name: String,
    _: State.Type,
    _: Model.Type,
    fields: Int,
    observers: Int,
    keyedWrite: @escaping (Store<State>, Int, Int) -> Void,
    wholeStateWrite: @escaping (Store<State>, Int, Int) -> Void,
    subjectWrite: @escaping (CurrentValueSubject<State, Never>, Int, Int) -> Void,
    keyPaths: [any WritableKeyPath<State, Int> & Sendable]
) {
    let writes = 1_000
    let plan = WritePlan(fields: fields, observers: observers, writes: writes, seed: UInt64(observers))

    // Compose
    let calls = Calls()
    let counter = Counter()
    let store = Store<State>()
    for observer in 0..<observers {
        store.observe(keyPaths[plan.field(ofObserver: observer)]) { _ in calls.count += 1 }
    }
    Benchmark("Store/\(name) keypath write/Compose", configuration: scenario(ops: writes, unit: "writes")) { _ in
        perform(plan, writes: writes, calls: calls, counter: counter) { keyedWrite(store, $0, $1) }
    }
    Benchmark("Store/\(name) whole-state write/Compose", configuration: scenario(ops: writes, unit: "writes")) { _ in
        perform(plan, writes: writes, calls: calls, counter: counter) { wholeStateWrite(store, $0, $1) }
    }

    // OpenCombine: CurrentValueSubject + map(keyPath) + removeDuplicates per observer. It pays per
    // observer on every write, so fewer writes per iteration where there are many.
    let subjectWrites = observers >= 10_000 ? 10 : writes
    let subjectCalls = Calls()
    let subjectCounter = Counter()
    let subject = CurrentValueSubject<State, Never>(State())
    let cancellables = (0..<observers).map { observer in
        subject.map(keyPaths[plan.field(ofObserver: observer)]).removeDuplicates()
            .sink { _ in subjectCalls.count += 1 }
    }
    Benchmark(
        "Store/\(name) property write/OpenCombine",
        configuration: scenario(ops: subjectWrites, unit: "writes")
    ) { _ in
        perform(plan, writes: subjectWrites, calls: subjectCalls, counter: subjectCounter) { subjectWrite(subject, $0, $1) }
        blackHole(cancellables)
    }

    observationPeer(name, Model.self, variant: "Observation", plan: plan)
}

/// Observation: an @Observable class (or its expansion), one withObservationTracking per
/// observer, tracking again each time it fires (as a view does when it re-renders).
private func observationPeer<Model: ObservableBenchmarkModel>(
    _ name: String,
    _: Model.Type,
    variant: String,
    plan: WritePlan
) {
    let calls = Calls()
    let counter = Counter()
    let model = Model()
    let trackers = (0..<plan.observersPerField.reduce(0, +)).map { observer in
        ObservationTracker(calls: calls) { blackHole(model.read(field: plan.field(ofObserver: observer))) }
    }
    let writes = plan.fields.count
    Benchmark(
        "Store/\(name) property write/\(variant)",
        configuration: scenario(ops: writes, unit: "writes")
    ) { _ in
        perform(plan, writes: writes, calls: calls, counter: counter) { model.write(field: $0, value: $1) }
        blackHole(trackers)
    }
}

/// The `@Observable` classes of the Observation peer (generated in Generated/States.swift).
protocol ObservableBenchmarkModel: Observable, AnyObject, Sendable {
    init()
    func write(field: Int, value: Int)
    func read(field: Int) -> Int
}

/// One observer of the Observation peer: tracks what `read` reads, counts each change, and
/// tracks again (as a view re-renders).
final class ObservationTracker: @unchecked Sendable {
    let calls: Calls
    let read: () -> Void

    init(calls: Calls, read: @escaping () -> Void) {
        self.calls = calls
        self.read = read
        track()
    }

    func track() {
        withObservationTracking {
            read()
        } onChange: { [self] in
            calls.count += 1
            track()
        }
    }
}

/// Writes that change a field nobody observes: the store allocates nothing for them.
private func unobservedMutations() {
    let mutations = 1_000
    let counter = Counter()
    let store = Store<LargeState>()
    // 100 observers on fields 0..<100; the writes change fields 500..<1,000.
    for field in 0..<100 {
        store.observe(LargeState.keyPaths[field]) { blackHole($0) }
    }
    Benchmark(
        "Store/1,000 fields unobserved keypath write/Compose",
        configuration: scenario(ops: mutations, unit: "mutations")
    ) { _ in
        for mutation in 0..<mutations {
            store.keyedWrite(field: 500 + mutation % 500, value: counter.next())
        }
    }
    Benchmark(
        "Store/1,000 fields unobserved whole-state write/Compose",
        configuration: scenario(ops: mutations, unit: "mutations")
    ) { _ in
        for mutation in 0..<mutations {
            store.wholeStateWrite(field: 500 + mutation % 500, value: counter.next())
        }
    }
}
