import Benchmark
import ComposeRefs
import ComposeStore
import Observation

/// Ref scenarios: one write propagated to M stores that share the entity; one read through a
/// `@Ref` by key path and by code; one write, and one look-up of a live id, with 100 and with
/// 100,000 distinct ids alive.
func refsBenchmarks() {
    for stores in [1, 100, 1_000] {
        propagation(toStores: stores)
    }
    observationPropagation()
    keyPathRead()
    registrySize(100, tag: HundredIDs.self)
    registrySize(100_000, tag: HundredThousandIDs.self)
}

/// The shared model. The tag makes a type per scenario, hence a registry per scenario: every
/// scenario is set up before any runs, and the 100-id scenario must not see the other's ids.
struct BenchmarkSpecimen<Tag>: Referable {
    var id: Int
    var name: String
    var count: Int
}

enum HundredIDs {}
enum HundredThousandIDs {}

struct SpecimenState<Tag>: AnyState {
    @Ref var specimen: BenchmarkSpecimen<Tag>
}

/// The propagation scenarios' model and state, concrete types as an app declares them (a generic
/// state makes every key-path read look its metadata up at run time, which an app does not pay).
struct PropagatedSpecimen: Referable {
    var id: Int
    var name: String
    var count: Int
}

struct PropagationState: AnyState {
    @Ref var specimen: PropagatedSpecimen
}

/// Bumps a counter, so that every write writes a new value.
private final class WriteCounter: @unchecked Sendable {
    var value = 0
    func next() -> Int {
        value &+= 1
        return value
    }
}

/// M stores hold the entity, each with an observer of the count; one iteration writes it
/// through the first store, as a component would, and every store hears it.
private func propagation(toStores count: Int) {
    let referred = Referred(PropagatedSpecimen(id: count, name: "propagated", count: 0))
    let heard = Calls()
    let stores = (0..<count).map { _ in
        let store = Store<PropagationState>()
        store.state.$specimen = referred
        store.observe(\.specimen.count) { _ in heard.count += 1 }
        return store
    }
    let writes = count >= 1_000 ? 10 : (count >= 100 ? 100 : 1_000)
    let counter = WriteCounter()
    Benchmark(
        "Refs/one write to M=\(count) stores/Compose",
        configuration: scenario(ops: writes, unit: "writes")
    ) { _ in
        // Through the stores array: the closure must keep every store (and its observer) alive.
        let before = heard.count
        for _ in 0..<writes {
            stores[0].specimen.count = counter.next()
        }
        precondition(heard.count - before == writes * count, "every store's observer hears every write")
    }
}

/// Part of what each store adds to a ref write: its observer reads `\.specimen.count` through the
/// `@Ref`, which only the key-path runtime can do for a key path handed over at run time (the
/// first component is the property wrapper's computed getter). The same read written as code, for
/// comparison.
private func keyPathRead() {
    let referred = Referred(PropagatedSpecimen(id: -1, name: "read", count: 7))
    var state = PropagationState()
    state.$specimen = referred
    let keyPath: KeyPath<PropagationState, Int> = \.specimen.count
    let reads = 1_000
    Benchmark("Refs/read a count through a @Ref/key path", configuration: scenario(ops: reads, unit: "reads")) { _ in
        var sum = 0
        for _ in 0..<reads { sum &+= state[keyPath: keyPath] }
        precondition(sum == 7 * reads, "every read reads the count")
    }
    Benchmark("Refs/read a count through a @Ref/property access", configuration: scenario(ops: reads, unit: "reads")) { _ in
        var sum = 0
        for _ in 0..<reads { sum &+= state.specimen.count }
        precondition(sum == 7 * reads, "every read reads the count")
    }
}

/// The peer of one write heard by one store: an `@Observable` object's write heard by one
/// `withObservationTracking` (tracking again when it fires, as a view does).
private func observationPropagation() {
    let model = ObservedSpecimen()
    let calls = Calls()
    let tracker = ObservationTracker(calls: calls) { blackHole(model.count) }
    let writes = 1_000
    let counter = WriteCounter()
    Benchmark("Refs/one write heard by one tracker/Observation", configuration: scenario(ops: writes, unit: "writes")) { _ in
        let before = calls.count
        for _ in 0..<writes {
            model.count = counter.next()
        }
        precondition(calls.count - before == writes, "the tracker hears every write")
        blackHole(tracker)
    }
}

@Observable
final class ObservedSpecimen: @unchecked Sendable {
    var id = 0
    var name = "propagated"
    var count = 0
}

/// `ids` entities alive; one store holds one of them. Times a write through the store and a
/// look-up of a live id (what `@Ref var x = value` and decoding do).
private func registrySize<Tag>(_ ids: Int, tag: Tag.Type) {
    let live = (0..<ids).map { Referred(BenchmarkSpecimen<Tag>(id: $0, name: "live", count: 0)) }
    let store = Store<SpecimenState<Tag>>()
    store.state.$specimen = live[ids / 2]
    store.observe(\.specimen.count) { blackHole($0) }
    let counter = WriteCounter()
    let operations = 1_000
    Benchmark(
        "Refs/one write, \(ids) ids alive/Compose",
        configuration: scenario(ops: operations, unit: "writes")
    ) { _ in
        // `live` is captured: the ids must stay alive while the benchmark runs.
        precondition(live.count == ids)
        for _ in 0..<operations {
            store.specimen.count = counter.next()
        }
    }
    // Distinct ids spread over the table; each one is live, so the look-up adopts it.
    let probes = (0..<operations).map { BenchmarkSpecimen<Tag>(id: ($0 &* 7_919) % ids, name: "probe", count: 0) }
    Benchmark(
        "Refs/look up a live id, \(ids) ids alive/Compose",
        configuration: scenario(ops: operations, unit: "look-ups")
    ) { _ in
        precondition(live.count == ids)
        for probe in probes {
            blackHole(Referred(probe))
        }
    }
}
