import ComposeEmitters
import ComposeMachinery
import ComposeStore
import ComposeTestSupport
import Testing

@Suite struct ExecuteTests {
    struct Offline: Error, Equatable {}

    struct State: AnyState {
        var profile: Async<String> = .uninitialized
    }

    /// An operation the test finishes by hand.
    final class Gate: Sendable {
        private let continuations = LockedState<[CheckedContinuation<String, any Error>]>([])
        func wait() async throws -> String {
            try await withCheckedThrowingContinuation { continuation in
                continuations.withLock { $0.append(continuation) }
            }
        }
        var waiting: Int { continuations.withLock { $0.count } }
        func finish(_ result: Result<String, any Error>) {
            let continuation = continuations.withLock { $0.removeFirst() }
            continuation.resume(with: result)
        }
    }

    @Test func movesThroughLoadingToSuccess() async {
        let store = Store<State>()
        let gate = Gate()
        let states = Recorder<Async<String>>()
        store.observe(\.profile) { states.record($0) }

        let task = store.execute(\.profile) { try await gate.wait() }
        #expect(store.profile == .loading(previous: nil))
        await eventually { gate.waiting == 1 }
        gate.finish(.success("Jill"))
        await task.value

        #expect(store.profile == .success("Jill"))
        #expect(states.values == [.loading(previous: nil), .success("Jill")])
    }

    @Test func aFailureKeepsThePreviousValue() async {
        let store = Store<State>(wrappedValue: State(profile: .success("Jill")))
        let task = store.execute(\.profile) { throw Offline() }
        await task.value
        guard case .failure(let failure, let previous) = store.profile else {
            Issue.record("expected a failure, got \(store.profile)")
            return
        }
        #expect(failure.error as? Offline == Offline())
        #expect(previous == "Jill")
        #expect(store.profile.value == "Jill")
    }

    @Test func executingAgainCancelsThePreviousRunAndDropsItsResult() async {
        let store = Store<State>()
        let gate = Gate()
        let first = store.execute(\.profile) { try await gate.wait() }
        await eventually { gate.waiting == 1 }
        let second = store.execute(\.profile) { "second" }
        await second.value
        #expect(store.profile == .success("second"))
        // The first run finishes late: its result is dropped.
        gate.finish(.success("first"))
        await first.value
        #expect(store.profile == .success("second"))
    }

    @Test func cancellingTheTaskLeavesTheValueLoading() async {
        let store = Store<State>()
        let task = store.execute(\.profile) {
            try await Task.sleep(for: .seconds(3_600))
            return "never"
        }
        task.cancel()
        await task.value
        #expect(store.profile == .loading(previous: nil))
    }

    @Test func asyncAccessors() {
        let failure = AsyncFailure(Offline())
        #expect(Async<Int>.uninitialized.value == nil)
        #expect(Async.loading(previous: 1).value == 1)
        #expect(Async.loading(previous: 1).isLoading)
        #expect(Async.success(2).isComplete)
        #expect(Async.failure(failure, previous: 3).failure == failure)
        #expect(Async<Int>.failure(failure, previous: nil) != .failure(AsyncFailure(Offline()), previous: nil))
    }
}
