import Clocks
import ComposeMachinery
import ComposeTestSupport
import Foundation
import Testing

@testable import ComposeEmitters

/// Releasing a subscription is not a cancellation, also when the emitters it listens to go with
/// it: values already on their way to the handler (waiting for its actor, or for a timer) are
/// delivered.
///
/// Guarantees: "Releasing a subscription loses nothing: ... values waiting for a handler's actor
/// are delivered, through every operator with a relay of its own ..., and after their emitter or
/// store went away".
@Suite struct ReleaseEverythingTests {
    /// Every operator with a relay of its own, its handler on an actor of its own (not the main
    /// actor). The actor is busy while another thread sends, waits for the values to queue for
    /// the actor, then releases the subscription and both source emitters and frees the actor:
    /// the values are delivered.
    @Test(.timeLimit(.minutes(5)), arguments: OperatorCase.all)
    func valuesWaitingForAnActorSurviveReleasingTheSubscriptionAndItsSources(_ operatorCase: OperatorCase) async {
        let sources = LockedBox<(ValueEmitter<Int>, ValueEmitter<Int>)?>((ValueEmitter<Int>(), ValueEmitter<Int>()))
        let listener = Listener()
        let subscription: LockedBox<EmitterSubscription?>
        do {
            let (a, b) = sources.value!
            subscription = LockedBox(await listener.listen(to: operatorCase.emitter(a, b), released: Recorder()))
        }
        let relay = (subscription.value as! IsolatedSubscription<Int>).relay
        let occupied = Task { await listener.stayBusy() }
        #expect(await eventually(timeout: .seconds(10)) { listener.isBusy })
        let queued = Flag()
        startThread {
            do {
                let (a, b) = sources.value!
                operatorCase.sendFirst(a, b)
            }
            if spinUntil(timeout: testWaitLimit, { relay.backlog >= operatorCase.expectedFirst.count }) { queued.raise() }
            subscription.mutate { $0 = nil }
            sources.mutate { $0 = nil }
            listener.free()
        }
        await occupied.value
        #expect(queued.isRaised, "the values never queued for the actor")
        let heard = await heard(by: listener, expecting: operatorCase.expectedFirst)
        #expect(heard == operatorCase.expectedFirst, "\(operatorCase.name): heard \(heard)")
    }

    /// A time-based operator.
    enum TimeOperator: String, CaseIterable, Sendable {
        case delay, debounce, throttle

        func applied(to emitter: ValueEmitter<Int>, clock: TestClock<Duration>) -> AnyEmitter<Int> {
            switch self {
            case .delay: AnyEmitter(emitter.delay(interval: .seconds(1), clock: clock))
            case .debounce: AnyEmitter(emitter.debounce(interval: .seconds(1), clock: clock))
            case .throttle: AnyEmitter(emitter.throttle(interval: .seconds(1), clock: clock))
            }
        }

        /// What its handler hears of 1 then 2, sent at once.
        var heard: [Int] {
            self == .debounce ? [2] : [1, 2]
        }
    }

    /// A time-based operator, its handler on an actor of its own: the subscription and its source
    /// emitter are released while values wait for the timer, and are delivered when it fires.
    @Test(.timeLimit(.minutes(5)), arguments: TimeOperator.allCases)
    func valuesPendingInATimerSurviveReleasingTheSubscriptionAndItsSource(_ timeOperator: TimeOperator) async {
        let clock = TestClock()
        let listener = Listener()
        let subscription: LockedBox<EmitterSubscription?>
        do {
            let emitter = ValueEmitter<Int>()
            let chain = timeOperator.applied(to: emitter, clock: clock)
            subscription = LockedBox(await listener.listen(to: chain, released: Recorder()))
            emitter.send(1)
            emitter.send(2)
        }
        subscription.mutate { $0 = nil }
        await clock.advance(by: .seconds(1))
        let heard = await heard(by: listener, expecting: timeOperator.heard, advancing: clock)
        #expect(heard == timeOperator.heard, "\(timeOperator): heard \(heard)")
    }

    /// What `listener` heard, once that is `expected` or 10 s have passed. Meanwhile wakes the
    /// sleepers of `clock` that registered late (see `TestClock.advance(by:until:)`).
    private func heard(
        by listener: Listener, expecting expected: [Int], advancing clock: TestClock<Duration>? = nil
    ) async -> [Int] {
        let deadline = ContinuousClock.now + .seconds(10)
        var heard = await listener.heard
        while heard != expected, ContinuousClock.now < deadline {
            await clock?.advance(by: .zero)
            try? await Task.sleep(for: .milliseconds(1))
            heard = await listener.heard
        }
        return heard
    }
}
