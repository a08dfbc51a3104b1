import ComposeTestSupport
import Foundation
import Synchronization
import Testing

@testable import ComposeEmitters

/// A scope's sweep (every 64 adoptions) racing a `cancel()` of one of its subscriptions that is
/// on its way to the emitter's lock, with no lock held by the test: a third thread subscribes,
/// sends and cancels on the same emitter (ordinary use), so the cancel sometimes waits for the
/// lock while the scope sweeps and ends.
///
/// Guarantees: "Once any `end()` of an `ObservationScope` has returned, no handler of the scope is
/// called (... a nonisolated one by no send that starts afterwards): every `end()` cancels every
/// subscription as the first does". The deterministic form, with the lock held by the test:
/// `ComposeEmittersTests/ScopeSettlingTests.noSendAfterEndReachesASubscriptionWhoseCancelIsOnItsWay`.
@Suite struct ScopeSweepRaceTests {
    /// A sweep that lets go of a subscription whose cancel is still on its way lets the send after
    /// `end()` reach the handler in 1 to 8 rounds out of 100; 250 rounds (about a second on two
    /// cores, so the stress tests stay light enough to run under ThreadSanitizer together) all but
    /// certainly catch it; `ScopeSettlingTests` holds the promise deterministically.
    static let rounds = 250

    @Test(.timeLimit(.minutes(2)))
    func noSendAfterEndReachesASubscriptionSweptWhileItsCancelIsOnItsWay() async {
        let late = Atomic<Int>(0)
        let keptWhileCancelling = Atomic<Int>(0)
        await onThreads(1) { _ in
            let other = ValueEmitter<Int>()
            for _ in 0..<Self.rounds {
                let emitter = ValueEmitter<Int>()
                let scope = ObservationScope(label: "ScopeSweepRaceTests")
                let heardAfterEnd = Atomic<Bool>(false)
                let subscription = scope.run {
                    emitter += { value in if value == -1 { heardAfterEnd.store(true, ordering: .relaxed) } }
                }
                for _ in 0..<62 { scope.adopt(other += { _ in }) }
                let done = Atomic<Int>(0)
                let stopOrdinaryUse = Flag()
                startThread {  // ordinary use of the emitter: subscriptions, sends, cancellations
                    while !stopOrdinaryUse.isRaised {
                        let passing = emitter += { _ in }
                        emitter.send(1)
                        passing.cancel()
                    }
                    done.add(1, ordering: .relaxed)
                }
                startThread {  // the first cancel
                    subscription.cancel()
                    done.add(1, ordering: .relaxed)
                }
                // This thread: sweep, end, then send.
                let deadline = ContinuousClock.now + .seconds(2)
                while !subscription.isCancelled, ContinuousClock.now < deadline {}
                scope.adopt(other += { _ in })  // the 64th: sweeps
                if scope.retainedSubscriptionCount == 64 { keptWhileCancelling.add(1, ordering: .relaxed) }
                scope.end()
                emitter.send(-1)
                if heardAfterEnd.load(ordering: .relaxed) { late.add(1, ordering: .relaxed) }
                stopOrdinaryUse.raise()
                while done.load(ordering: .relaxed) < 2, ContinuousClock.now < deadline + .seconds(5) { usleep(10) }
            }
        }
        #expect(
            late.load(ordering: .relaxed) == 0,
            "\(late.load(ordering: .relaxed))/\(Self.rounds) rounds: a send after end() returned reached the handler (kept by the sweep while its cancel was on its way: \(keptWhileCancelling.load(ordering: .relaxed)))"
        )
    }
}
