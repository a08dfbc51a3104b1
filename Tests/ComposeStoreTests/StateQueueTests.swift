import ComposeEmitters
import ComposeMachinery
@_spi(Testing) import ComposeStore
import ComposeTestSupport
import Testing

/// Runs queued `setState` / `withState` work only when told to, so ordering is deterministic.
final class ManualScheduler: Sendable {
    private let pending = LockedState<[@Sendable () -> Void]>([])

    var scheduler: StateQueueScheduler {
        StateQueueScheduler { work in self.pending.withLock { $0.append(work) } }
    }

    func runAll() {
        while let work = pending.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) { work() }
    }
}

/// Cyanic's and MvRx's ordering guarantees for `setState` and `withState`.
@Suite struct StateQueueTests {
    struct YourState: AnyState {
        var foo = "Hi"
    }

    @Test func theDocumentedExample() {
        // From Cyanic's README (and MvRx's):
        //   // state.foo == "Hi"
        //   yourViewModel.withState { state in print(state.foo) }
        //   yourViewModel.setState { state in state.foo = "Hello, World!" }
        //   yourViewModel.withState { state in print(state.foo) }
        //   // "Hello, World!"
        //   // "Hello, World!"
        let queue = ManualScheduler()
        let yourViewModel = Store<YourState>(scheduler: queue.scheduler)
        let output = Recorder<String>()

        yourViewModel.withState { state in output.record(state.foo) }
        yourViewModel.setState { state in state.foo = "Hello, World!" }
        yourViewModel.withState { state in output.record(state.foo) }
        queue.runAll()

        #expect(output.values == ["Hello, World!", "Hello, World!"])
    }

    @Test func mutationsRunInQueueOrderAndBeforeEveryPendingRead() {
        let queue = ManualScheduler()
        let store = Store<Profile>(scheduler: queue.scheduler)
        let output = Recorder<String>()
        store.withState { output.record("read \($0.tags)") }
        store.setState { $0.tags.append("a") }
        store.withState { output.record("read \($0.tags)") }
        store.setState { $0.tags.append("b") }
        queue.runAll()
        #expect(output.values == ["read [\"a\", \"b\"]", "read [\"a\", \"b\"]"])
    }

    @Test func aMutationQueuedByAReadRunsBeforeTheNextRead() {
        let queue = ManualScheduler()
        let store = Store<Profile>(scheduler: queue.scheduler)
        let output = Recorder<Int>()
        store.withState { state in
            output.record(state.age)
            store.setState { $0.age = 2 }
        }
        store.withState { output.record($0.age) }
        store.setState { $0.age = 1 }
        queue.runAll()
        #expect(output.values == [1, 2])
    }

    @Test func eachQueuedMutationNotifiesOnce() {
        let queue = ManualScheduler()
        let store = Store<Profile>(scheduler: queue.scheduler)
        let changes = Recorder<Profile>()
        store.willChange += changes.record
        store.setState {
            $0.firstName = "Jill"
            $0.lastName = "Valentine"
        }
        store.setState { $0.age = 23 }
        queue.runAll()
        #expect(changes.values.map(\.age) == [0, 23])
    }

    @Test func onTheBackgroundSchedulerSettledWaitsForQueuedMutations() async {
        let store = Store<Profile>()
        for _ in 0..<100 { store.setState { $0.age += 1 } }
        let settled = await store.settled()
        #expect(settled.age == 100)
    }

    @Test func globalWithStateReadsSeveralStores() {
        let profile = Store<Profile>(wrappedValue: Profile(firstName: "Jill"))
        let other = Store<YourState>()
        let line = withState(profile, other) { profile, other in "\(profile.firstName) says \(other.foo)" }
        #expect(line == "Jill says Hi")
        #expect(withState(profile) { $0.firstName } == "Jill")
    }
}
