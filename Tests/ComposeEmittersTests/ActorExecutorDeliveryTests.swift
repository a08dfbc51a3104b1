import ComposeTestSupport
import Foundation
import Testing

@testable import ComposeEmitters

/// A handler written on an actor with an executor of its own (a dispatch queue, an event loop)
/// hears a value without a thread of Swift's concurrency pool: every one of them may be busy.
@Suite struct ActorExecutorDeliveryTests {
    @Test func anActorWithItsOwnExecutorHearsAValueWhileEveryPoolThreadIsBusy() async {
        let emitter = ValueEmitter<Int>()
        let listener = QueueListener()
        let subscription = await listener.listen(to: emitter)
        // More tasks that hold their thread than the pool has threads: some wait for one.
        let blockers = 4 * ProcessInfo.processInfo.activeProcessorCount + 4
        let started = LockedBox(0)
        let release = Flag()
        let deadline = ContinuousClock.now + testWaitLimit
        for _ in 0..<blockers {
            Task.detached {
                started.mutate { $0 += 1 }
                while !release.isRaised && ContinuousClock.now < deadline { usleep(100) }
            }
        }
        let startedWhenHeard = LockedBox<Int?>(nil)
        await onThreads(1) { _ in
            usleep(50_000)  // the blockers take every thread of the pool meanwhile
            listener.onHear.mutate { $0 = { startedWhenHeard.mutate { $0 = started.value } } }
            emitter.send(1)
            _ = spinUntil { startedWhenHeard.value != nil || ContinuousClock.now >= deadline }
            release.raise()
        }
        let heard = startedWhenHeard.value
        #expect(heard != nil, "the handler was not called while the pool was busy")
        // Decisive only if some blocker still waited for a thread when the handler ran.
        if let heard { #expect(heard < blockers, "every blocker had a thread: the pool was not full") }
        subscription.cancel()
    }
}

/// An actor on a dispatch queue of its own whose handler runs ``onHear``.
private actor QueueListener {
    private nonisolated let executor = QueueExecutor()
    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
    nonisolated let onHear = LockedBox<(@Sendable () -> Void)?>(nil)

    func listen(to emitter: ValueEmitter<Int>) -> EmitterSubscription {
        emitter += { _ in self.onHear.value?() }
    }
}
