import ComposeEmitters
import ComposeMachinery
@_spi(Testing) import ComposeStore
import ComposeTestSupport
import Foundation
import Testing

/// Executing again for the same key path cancels the previous run before the new run's
/// `.loading` commits: the previous run's result lands before the new `execute` began, or never.
@Suite struct SupersededExecuteTests {
    typealias State = ExecuteTests.State
    typealias Gate = ExecuteTests.Gate

    /// The first run's operation finishes while the second run's `.loading` is being announced
    /// (an observer called by that commit finishes it, then gives its result two seconds to
    /// land): once the first task has ended, the value is the second run's `.loading`.
    @Test func theReplacedRunsResultDoesNotLandOverTheNewRunsLoading() async {
        let store = Store<State>()
        let gate = Gate()
        let first = store.execute(\.profile) { try await gate.wait() }
        await eventually { gate.waiting == 1 }
        store.profile = .success("mid")  // so that the second run's `.loading` is a change
        let armed = LockedBox(false)
        let subscription = store.observe(\.profile) { value in
            guard armed.value, case .loading = value else { return }
            armed.mutate { $0 = false }
            gate.finish(.success("first"))
            let deadline = ContinuousClock.now + .seconds(2)
            while ContinuousClock.now < deadline, store.profile != .success("first") { usleep(1_000) }
        }
        let secondGate = Gate()
        let second = LockedBox<Task<Void, Never>?>(nil)
        await onThreads(1) { _ in
            armed.mutate { $0 = true }
            second.mutate { $0 = store.execute(\.profile) { try await secondGate.wait() } }
        }
        await first.value
        #expect(store.profile == .loading(previous: "mid"), "the replaced run's result landed")
        subscription.cancel()
        second.value?.cancel()
        await eventually { secondGate.waiting == 1 }
        secondGate.finish(.failure(CancellationError()))
    }

    /// The first run finishes at the moment a second `execute` starts on another thread, 300
    /// times: its result either landed before the second began (then `.loading` keeps it as the
    /// previous value) or not at all; it is never the value once both have started.
    @Test func theReplacedRunsResultNeverLandsAfterTheNewRunBegan() async {
        var landed = 0
        let rounds = 300
        for _ in 0..<rounds {
            let store = Store<State>()
            let gate = Gate()
            let first = store.execute(\.profile) { try await gate.wait() }
            await eventually { gate.waiting == 1 }
            let secondGate = Gate()
            let second = LockedBox<Task<Void, Never>?>(nil)
            await onThreads(2) { index in
                if index == 0 {
                    gate.finish(.success("first"))
                } else {
                    second.mutate { $0 = store.execute(\.profile) { try await secondGate.wait() } }
                }
            }
            await first.value
            if store.profile == .success("first") { landed += 1 }
            second.value?.cancel()
            await eventually { secondGate.waiting == 1 }
            secondGate.finish(.failure(CancellationError()))
        }
        #expect(landed == 0, "the replaced run's result landed after the new run began in \(landed) of \(rounds) rounds")
    }
}
