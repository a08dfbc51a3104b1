import ComposeEmitters
import ComposeTestSupport
import Foundation
import Synchronization
import Testing

/// Cancels racing the deinit of the emitter they cancel on.
@Suite struct CancelRacingDeinitTests {
    static let rounds = 600

    /// Two threads each cancel both subscriptions of an emitter (so each subscription is
    /// cancelled twice at once), while a third sends through a reference it took and the test
    /// drops the last other reference to the emitter: no crash, no hang, and no send that starts
    /// once both threads' cancels have returned reaches a handler.
    @Test(.timeLimit(.minutes(2)))
    func cancelsRacingTheEmittersDeinitReturnAndSilenceTheHandlers() async {
        let late = Atomic<Int>(0)
        let hung = Atomic<Int>(0)
        await onThreads(1) { _ in
            for _ in 0..<Self.rounds {
                let box = LockedBox<ValueEmitter<String>?>(ValueEmitter<String>())
                let bothCancelled = Flag()
                let subscriptions = (0..<2).map { _ in
                    box.value! += { value in
                        if value == "late", bothCancelled.isRaised { late.add(1, ordering: .relaxed) }
                    }
                }
                let signals = SignalEmitter()
                let signalSubscription = signals += {}
                let done = Atomic<Int>(0)
                let cancelled = Atomic<Int>(0)
                for thread in 0..<2 {
                    startThread {
                        subscriptions[thread].cancel()
                        subscriptions[1 - thread].cancel()
                        signalSubscription.cancel()
                        if cancelled.add(1, ordering: .sequentiallyConsistent).newValue == 2 { bothCancelled.raise() }
                        done.add(1, ordering: .relaxed)
                    }
                }
                startThread {
                    if let sender = box.value {
                        for _ in 0..<5 { sender.send("early") }
                        while !bothCancelled.isRaised, done.load(ordering: .relaxed) < 2 {}
                        sender.send("late")
                    }
                    done.add(1, ordering: .relaxed)
                }
                box.mutate { $0 = nil }
                let deadline = ContinuousClock.now + .seconds(5)
                while done.load(ordering: .relaxed) < 3 {
                    if ContinuousClock.now > deadline {
                        hung.add(1, ordering: .relaxed)
                        break
                    }
                    usleep(10)
                }
            }
        }
        #expect(hung.load(ordering: .relaxed) == 0, "a round did not finish within 5 s")
        #expect(late.load(ordering: .relaxed) == 0, "a send that started after both cancels returned reached a handler")
    }
}
