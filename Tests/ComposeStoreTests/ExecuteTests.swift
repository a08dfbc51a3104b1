import ComposeEmitters
import ComposeMachinery
@_spi(Testing) import ComposeStore
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

    /// The operation does not look at cancellation and succeeds after `cancel()`: its success is
    /// dropped, and so is a failure.
    @Test func aCancelledRunWhoseOperationIgnoresCancellationDropsItsLateResult() async {
        let store = Store<State>(wrappedValue: State(profile: .success("before")))
        let gate = Gate()  // a continuation: it does not end when the task is cancelled
        let succeeding = store.execute(\.profile) { try await gate.wait() }
        await eventually { gate.waiting == 1 }
        succeeding.cancel()
        gate.finish(.success("late"))
        await succeeding.value
        #expect(store.profile == .loading(previous: "before"))

        let failing = store.execute(\.profile) { try await gate.wait() }
        await eventually { gate.waiting == 1 }
        failing.cancel()
        gate.finish(.failure(Offline()))
        await failing.value
        #expect(store.profile == .loading(previous: "before"))
    }

    /// The result's commit is under way (its body ran, and the commit waits for another
    /// thread's irrevocable `mutate`) when the task is cancelled: once `cancel()` has returned,
    /// the result does not land, and `cancel()` does not wait for that `mutate`.
    ///
    /// While the irrevocable body runs, the process's other irrevocable runs wait, and so may
    /// every thread of Swift's pool: so nothing the body waits for needs the pool. The task and
    /// the operation run on an actor of their own queue, the operation waits without suspending
    /// (a resumed continuation goes through the pool), and threads drive the rest.
    @Test func aResultWhoseCommitIsUnderWayDoesNotLandOnceCancelReturned() async {
        let store = Store<State>()
        let operationStarted = LockedBox(false)
        let go = LockedBox(false)
        let operationDone = LockedBox(false)
        let proceed = LockedBox(false)
        let task = await ExecuteActor.execute(for: store) {
            operationStarted.mutate { $0 = true }
            while !go.value { usleep(100) }  // holds the actor's queue, not a thread of the pool
            operationDone.mutate { $0 = true }
            return "late"
        }
        await onThreads(1) { _ in
            while !operationStarted.value { usleep(100) }
            startThread {
                var runs = 0
                store.mutate { _ in
                    runs += 1
                    guard runs > 4 else { return store.simulateConcurrentWrite() }  // lose 4 runs
                    // Irrevocable now: every other writer of the store waits for this body.
                    go.mutate { $0 = true }
                    while !proceed.value { usleep(100) }
                }
            }
            while !operationDone.value { usleep(100) }
            usleep(100_000)  // the result's commit waits for the gate
            task.cancel()
            proceed.mutate { $0 = true }
        }
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

/// An actor on a queue of its own: code isolated to it never waits for Swift's pool.
@globalActor
actor ExecuteActor {
    static let shared = ExecuteActor()
    private nonisolated let executor = QueueExecutor()
    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    /// Executes `operation` for `store`'s profile from this actor: the task and `operation`
    /// run here.
    static func execute(
        for store: Store<ExecuteTests.State>,
        _ operation: @escaping @ExecuteActor @Sendable () async throws -> String
    ) async -> Task<Void, Never> {
        await shared.start(store, operation)
    }

    private func start(
        _ store: Store<ExecuteTests.State>,
        _ operation: @escaping @ExecuteActor @Sendable () async throws -> String
    ) -> Task<Void, Never> {
        store.execute(\.profile) { @ExecuteActor in try await operation() }
    }
}
