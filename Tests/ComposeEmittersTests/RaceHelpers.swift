import ComposeMachinery
import ComposeTestSupport
import Foundation

@testable import ComposeEmitters

// What the tests that race cancels, ends and sends share. Every wait here is bounded, and none
// runs on Swift's cooperative pool: they run on threads of their own or on actors on a dispatch
// queue of their own.

/// Calls `onDeinit` when released: tells a test that whatever held it has let go.
final class DeinitWatcher: Sendable {
    let onDeinit: @Sendable () -> Void

    init(_ onDeinit: @escaping @Sendable () -> Void) {
        self.onDeinit = onDeinit
    }

    deinit { onDeinit() }
}

/// Spins, without suspending, until `condition` holds (true) or `timeout` has passed (false):
/// keeps the calling actor busy meanwhile.
func spinUntil(timeout: Duration = testWaitLimit, _ condition: () -> Bool) -> Bool {
    let deadline = ContinuousClock.now + timeout
    while !condition() {
        if ContinuousClock.now >= deadline { return false }
        usleep(100)  // blocks the caller without taking a core from the threads it waits for
    }
    return true
}

/// Takes `lock` on a thread of its own, raises `held`, and keeps it until `release` is raised (at
/// most 10 s): whatever needs the lock meanwhile waits for it.
func holdLock<State>(_ lock: LockedState<State>, held: Flag, release: Flag) {
    startThread {
        lock.withLock { _ in
            held.raise()
            // Long: under the whole suite (stress tests keeping the pool busy), the test may take
            // many seconds to get back to raising `release`, and an early release fakes a result.
            let deadline = ContinuousClock.now + .seconds(120)
            while !release.isRaised, ContinuousClock.now < deadline { usleep(100) }
        }
    }
}

/// Runs `body` on a thread of its own and tells whether it returned within `timeout`, waiting
/// without holding a thread of the cooperative pool. A `body` still running then runs on.
func returnsOnAThread(within timeout: Duration, _ body: @escaping @Sendable () -> Void) async -> Bool {
    let returned = Flag()
    startThread {
        body()
        returned.raise()
    }
    return await eventually(timeout: timeout) { returned.isRaised }
}

/// A handler on an actor of its own (on a dispatch queue, not Swift's pool) that, called, runs
/// ``onEntry`` if set, stays until ``release`` is raised, then runs ``cancelOnRelease`` if set.
actor HeldHandler {
    private nonisolated let executor = QueueExecutor()
    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
    nonisolated let entered = Flag()
    nonisolated let release = Flag()
    nonisolated let exited = Flag()
    nonisolated let onEntry = LockedBox<(@Sendable () -> Void)?>(nil)
    nonisolated let cancelOnRelease = LockedBox<(@Sendable () -> Void)?>(nil)

    func listen(to emitter: ValueEmitter<Int>) -> EmitterSubscription {
        emitter += { _ in self.hold() }
    }

    private func hold() {
        entered.raise()
        onEntry.value?()
        while !release.isRaised { usleep(100) }
        cancelOnRelease.value?()
        exited.raise()
    }
}
