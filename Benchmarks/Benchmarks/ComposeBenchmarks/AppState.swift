import Benchmark
import ComposeStore
import Observation

/// The app-like state: a screen's state of 40 fields (`AppState`), 200 observers on fields drawn
/// at random, and 1,000 writes in a seeded random mix of what apps write: heap strings, numbers,
/// flags, optionals, a field of a nested struct, an element of an array of 100 strings, an entry
/// of a dictionary of 50, and three fields in one `mutate` (AppWorkload.swift).
///
/// Contenders, each writing the way its users write:
/// - Compose, keyed: `$state.title = value`, `$state.items[i] = value`,
///   `$state.tags[key] = value`, `$state.address.city = value`, `$state.mutate { ... }`;
///   observers `$state.observe(\.field)`.
/// - Compose, whole state: `state.title = value`, `state.items[i] = value`, ...
/// - Observation: the same 40 properties in an `@Observable` class, written `model.title = value`,
///   `model.items[i] = value`, ...; one `withObservationTracking` per observer reading its
///   property, tracking again each time it fires (as a view does when it re-renders).
///
/// Every observer of every contender bumps one counter; each iteration checks that it made
/// exactly the calls the plan implies (every write changes what it writes).
func appStateWrites() {
    let plan = AppPlan(writes: 1_000, observers: 200, seed: 40)
    let configuration = scenario(ops: plan.writes.count, unit: "writes")

    // A store of its own for each way of writing: each iteration's values differ from the last
    // iteration's of the same store.
    let calls = Calls()
    let keyed = Store<AppState>()
    let wholeState = Store<AppState>()
    for field in plan.observed {
        keyed.observe(field: field) { calls.count += 1 }
        wholeState.observe(field: field) { calls.count += 1 }
    }
    var keyedIteration = 0
    Benchmark("Store/app state keypath write/Compose", configuration: configuration) { _ in
        plan.perform(iteration: keyedIteration, calls: calls) { keyed.keyedWrite($0, $1) }
        keyedIteration += 1
    }
    var wholeStateIteration = 0
    Benchmark("Store/app state whole-state write/Compose", configuration: configuration) { _ in
        plan.perform(iteration: wholeStateIteration, calls: calls) { wholeState.wholeStateWrite($0, $1) }
        wholeStateIteration += 1
    }

    let modelCalls = Calls()
    let model = AppModel()
    let trackers = plan.observed.map { field in ObservationTracker(calls: modelCalls) { model.read(field: field) } }
    var modelIteration = 0
    Benchmark("Store/app state property write/Observation", configuration: configuration) { _ in
        plan.perform(iteration: modelIteration, calls: modelCalls) { model.write($0, $1) }
        modelIteration += 1
        blackHole(trackers)
    }
}
