import ComposeEmitters
import ComposeMachinery
@_spi(Testing) import ComposeStore
import ComposeTestSupport
import Dispatch
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

    /// Two runs start at once on two threads; the one that made itself current first is held up
    /// before its `.loading` commits (in the cancellation handler of the run it replaces, which
    /// `execute` calls; a preemption does the same), while the other, started later, becomes
    /// current, loads and succeeds. The held-up run was replaced before it began: its `.loading`
    /// does not land over the newer run's result.
    @Test func aRunReplacedBeforeItsLoadingCommitsLeavesTheNewerResult() async {
        let store = Store<State>()
        let cancelling = DispatchSemaphore(value: 0)
        let resume = DispatchSemaphore(value: 0)
        let firstGate = Gate()
        let first = store.execute(\.profile) {
            try await withTaskCancellationHandler {
                try await firstGate.wait()
            } onCancel: {
                cancelling.signal()
                _ = resume.wait(timeout: .now() + 20)
            }
        }
        #expect(await eventually { firstGate.waiting == 1 })
        let heldGate = Gate()
        let held = LockedBox<Task<Void, Never>?>(nil)
        let heldReturned = DispatchSemaphore(value: 0)
        startThread {
            held.mutate { $0 = store.execute(\.profile) { try await heldGate.wait() } }
            heldReturned.signal()
        }
        await onThreads(1) { _ in _ = cancelling.wait(timeout: .now() + 20) }
        let newer = LockedBox<Task<Void, Never>?>(nil)
        await onThreads(1) { _ in newer.mutate { $0 = store.execute(\.profile) { "newer" } } }
        await newer.value?.value
        #expect(store.profile == .success("newer"))
        resume.signal()
        await onThreads(1) { _ in _ = heldReturned.wait(timeout: .now() + 20) }
        firstGate.finish(.failure(CancellationError()))
        await first.value
        // Its task was cancelled as it was made, and its operation still runs: let it finish.
        if await eventually({ heldGate.waiting == 1 }) { heldGate.finish(.success("held")) }
        await held.value?.value
        #expect(store.profile == .success("newer"))
    }

    /// The same race left to the scheduler: two threads execute at once, their operations answer
    /// at once. Once both tasks have ended, the value is one of their results, never `.loading`.
    @Test func twoRunsStartedAtOnceNeverLeaveTheValueLoading() async {
        var loading = 0
        for _ in 0..<300 {
            let store = Store<State>()
            let barrier = Barrier(parties: 2)
            let tasks = LockedBox<[Task<Void, Never>]>([])
            await onThreads(2) { index in
                barrier.arriveAndWait()
                let task = store.execute(\.profile) { "\(index)" }
                tasks.mutate { $0.append(task) }
            }
            for task in tasks.value { await task.value }
            if store.profile.isLoading { loading += 1 }
        }
        #expect(loading == 0, "left loading in \(loading) of 300 rounds")
    }
}
