import ComposeMachinery
import ComposeTestSupport
import Foundation
import Testing

@testable import ComposeEmitters

/// Every `cancel()` of a subscription to a handler on an actor, not only the first, returns no
/// sooner than the handler's call in progress: a second `cancel()` made while the first waits for
/// the handler waits too, and so does one of a subscription bundling it and a second `end()` of
/// a scope holding it. A handler that cancels itself meanwhile returns at once.
@Suite struct RepeatedCancelTests {
    /// How the test cancels the subscription, twice.
    enum Canceller: String, CaseIterable, CustomTestStringConvertible, Sendable {
        /// `cancel()` of the subscription itself.
        case subscription
        /// `cancel()` of `EmitterSubscription([subscription])`.
        case bundle
        /// `end()` of a scope that adopted it.
        case scope

        var testDescription: String { rawValue }

        func cancel(of subscription: EmitterSubscription) -> @Sendable () -> Void {
            switch self {
            case .subscription:
                return { subscription.cancel() }
            case .bundle:
                let bundle = EmitterSubscription([subscription])
                return { bundle.cancel() }
            case .scope:
                let scope = ObservationScope(label: "RepeatedCancelTests")
                scope.adopt(subscription)
                return { scope.end() }
            }
        }
    }

    /// The handler runs on its actor until released; one thread's cancel waits for it; this
    /// thread's second cancel must not return before the handler did.
    @Test(arguments: Canceller.allCases)
    func aSecondCancelWaitsForTheHandlerTheFirstWaitsFor(_ canceller: Canceller) async {
        let emitter = ValueEmitter<Int>()
        let handler = HeldHandler()
        let subscription = await handler.listen(to: emitter)
        let cancel = canceller.cancel(of: subscription)
        let exitedBeforeTheSecondReturned = LockedBox<Bool?>(nil)
        await onThreads(1) { _ in
            emitter.send(1)
            #expect(spinUntil { handler.entered.isRaised })
            startThread { cancel() }  // the first: waits for the handler
            #expect(spinUntil { subscription.isCancelled })
            usleep(20_000)
            startThread {
                usleep(100_000)  // the second cancel is under way by now
                handler.release.raise()
            }
            cancel()  // the second
            exitedBeforeTheSecondReturned.mutate { $0 = handler.exited.isRaised }
        }
        #expect(exitedBeforeTheSecondReturned.value == true, "the second cancel returned while the handler ran")
    }

    /// While another thread's cancel waits for it, the handler cancels its own subscription: that
    /// cancel returns at once (the call in progress is the last), and so does the other thread's
    /// once the handler has returned.
    @Test(arguments: Canceller.allCases)
    func aHandlerCancellingItselfWhileAnotherThreadWaitsReturns(_ canceller: Canceller) async {
        let emitter = ValueEmitter<Int>()
        let handler = HeldHandler()
        let subscription = await handler.listen(to: emitter)
        let cancel = canceller.cancel(of: subscription)
        handler.cancelOnRelease.mutate { $0 = cancel }
        let firstReturned = Flag()
        await onThreads(1) { _ in
            emitter.send(1)
            #expect(spinUntil { handler.entered.isRaised })
            startThread {
                cancel()
                firstReturned.raise()
            }
            #expect(spinUntil { subscription.isCancelled })
            usleep(20_000)
            handler.release.raise()
            #expect(spinUntil { handler.exited.isRaised })
            #expect(spinUntil { firstReturned.isRaised })
        }
        #expect(handler.exited.isRaised)
    }

    /// A second `cancel()` of a nonisolated handler, made while the first is held up before it
    /// removes the registration (the emitter's lock is held meanwhile), returns no sooner than
    /// the registration is gone: a send once it has returned reaches nobody.
    @Test(.timeLimit(.minutes(2)))
    func aSecondCancelReturnsNoSoonerThanTheRegistrationIsGone() async {
        let emitter = ValueEmitter<Int>()
        let heard = LockedBox<[Int]>([])
        let subscription = emitter += { value in heard.mutate { $0.append(value) } }
        let lockHeld = Flag()
        let release = Flag()
        let unlocking = Flag()  // raised under the lock, just before it is let go
        let secondReturned = LockedBox<Bool?>(nil)  // whether the lock was still held then
        startThread {
            emitter.core.state.withLock { _ in
                lockHeld.raise()
                let deadline = ContinuousClock.now + .seconds(120)
                while !release.isRaised, ContinuousClock.now < deadline { usleep(100) }
                unlocking.raise()
            }
        }
        #expect(await eventually { lockHeld.isRaised })
        startThread { subscription.cancel() }  // sets the flag, then waits for the lock
        #expect(await eventually { subscription.isCancelled })
        startThread {
            subscription.cancel()
            secondReturned.mutate { $0 = !unlocking.isRaised }
            emitter.send(1)
        }
        usleep(50_000)  // a second cancel that returned at once would have by now
        release.raise()
        #expect(await eventually { secondReturned.value != nil })
        #expect(secondReturned.value == false, "the second cancel returned while the lock was held")
        #expect(heard.value.isEmpty)
    }
}

/// A scope lets go of a cancelled subscription (its sweep, every 64 adoptions) only once no call
/// of its handler is in progress: an `end()` made while another thread's `cancel()` waits for the
/// handler waits too, with a sweep in between or without one.
@Suite struct ScopeSweepTests {
    @Test(arguments: [true, false])
    func endWaitsForTheCallInProgressOfASubscriptionCancelledElsewhere(sweep: Bool) async {
        let emitter = ValueEmitter<Int>()
        let handler = HeldHandler()
        let scope = ObservationScope(label: "ScopeSweepTests")
        let subscription = await handler.listen(to: emitter)
        scope.adopt(subscription)
        let exitedBeforeEndReturned = LockedBox<Bool?>(nil)
        await onThreads(1) { _ in
            emitter.send(1)
            #expect(spinUntil { handler.entered.isRaised })
            startThread { subscription.cancel() }  // waits for the handler
            #expect(spinUntil { subscription.isCancelled })
            let other = ValueEmitter<Int>()
            if sweep { for _ in 0..<63 { scope.adopt(other += { _ in }) } }  // the 64th sweeps
            startThread {
                usleep(100_000)  // end() is under way by now
                handler.release.raise()
            }
            scope.end()
            exitedBeforeEndReturned.mutate { $0 = handler.exited.isRaised }
        }
        #expect(exitedBeforeEndReturned.value == true, "end() returned while the scope's handler ran")
    }

    /// Once their handlers are done, cancelled subscriptions are swept: a long-lived scope does
    /// not keep every subscription it ever had.
    @Test func settledSubscriptionsAreSwept() async {
        let emitter = ValueEmitter<Int>()
        let handler = HeldHandler()
        handler.release.raise()
        let scope = ObservationScope(label: "ScopeSweepTests")
        for _ in 0..<200 {
            let subscription = await handler.listen(to: emitter)
            scope.adopt(subscription)
            subscription.cancel()
        }
        #expect(scope.retainedSubscriptionCount < 64)
        scope.end()
    }
}
