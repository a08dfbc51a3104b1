import ComposeMachinery
import ComposeTestSupport
import Foundation
import Testing

@testable import ComposeEmitters

/// Handlers written on an actor: once `cancel()` has returned the handler is not called again,
/// whatever thread cancels and whatever waits for the actor; and releasing the subscription,
/// which does not cancel it, loses nothing.
///
/// Each test knows that nothing can be called any more when the handler has been released: a
/// stopped relay releases its handler once nobody can be calling it. So the tests wait for that
/// (a ``DeinitWatcher`` the handler captures), not for time to pass.
@Suite struct IsolatedCancellationTests {
    /// An actor's handler, the actor busy while a value is sent and the subscription cancelled
    /// from another thread: when the actor frees up, the handler is not called.
    @Test func anActorHandlerIsNotCalledOnceCancelFromAnotherThreadReturned() async {
        let emitter = ValueEmitter<Int>()
        let listener = Listener()
        let released = Recorder<Bool>()
        let subscription = await listener.listen(to: emitter, released: released)
        let occupied = Task { await listener.stayBusy() }
        #expect(await eventually { listener.isBusy })
        await onThreads(1) { _ in
            emitter.send(1)
            // Time for a task that the send started off the actor to take the value before the
            // cancellation, as a delivery that took values before hopping to the actor would.
            usleep(20_000)
            subscription.cancel()
        }
        listener.free()
        await occupied.value
        #expect(await eventually { !released.values.isEmpty })
        #expect(await listener.heard == [])
    }

    /// The same, with `cancel()` made on the actor itself while the value waits for it.
    @Test func anActorHandlerIsNotCalledOnceCancelOnTheActorReturned() async {
        let emitter = ValueEmitter<Int>()
        let listener = Listener()
        let released = Recorder<Bool>()
        let subscription = await listener.listen(to: emitter, released: released)
        let sent = Flag()
        let occupied = Task { await listener.cancel(subscription, whenTrue: sent) }
        #expect(await eventually { listener.isBusy })
        await onThreads(1) { _ in
            emitter.send(1)
            sent.raise()
        }
        await occupied.value
        #expect(await eventually { !released.values.isEmpty })
        #expect(await listener.heard == [])
    }

    /// A thread sends 400 values to a main-actor handler while the main actor drains them, then
    /// cancels, then raises a flag: the handler is never entered with the flag raised. Run 300
    /// times, so that the cancellation lands while the main actor is between values, and while
    /// it is inside the handler.
    @MainActor
    @Test func aMainActorHandlerIsNotCalledOnceCancelFromAnotherThreadReturned() async {
        var enteredAfterCancel = 0
        for _ in 0..<300 {
            let emitter = ValueEmitter<Int>()
            let cancelled = Flag()
            let released = Recorder<Bool>()
            let subscription = Self.subscribe(to: emitter, released: released) {
                if cancelled.isRaised { enteredAfterCancel += 1 }
            }
            startThread {
                for value in 0..<400 { emitter.send(value) }
                subscription.cancel()
                cancelled.raise()
            }
            #expect(await eventually { @Sendable in !released.values.isEmpty })
        }
        #expect(enteredAfterCancel == 0)
    }

    @MainActor
    private static func subscribe(
        to emitter: ValueEmitter<Int>,
        released: Recorder<Bool>,
        _ body: @escaping @MainActor () -> Void
    ) -> EmitterSubscription {
        let watcher = DeinitWatcher { released.record(true) }
        return emitter += { _ in
            _ = watcher
            body()
        }
    }

    /// Every operator that funnels values through a relay of its own, with a main-actor handler:
    /// values queued for the main actor when the subscription is released (not cancelled) are
    /// delivered, and so are later ones.
    ///
    /// The main actor is held while another thread sends and releases the handle. A time-based
    /// operator's values reach the relay through a task of Swift's pool, which other tests may
    /// occupy for a while; holding the main actor meanwhile would stall every main-actor test. So
    /// an attempt holds it for at most two seconds, and one whose values did not queue in that
    /// time is set aside and made again, with new emitters.
    @MainActor
    @Test(arguments: OperatorCase.all)
    func releasingTheSubscriptionLosesNoValueWaitingForTheMainActor(_ operatorCase: OperatorCase) async {
        for _ in 0..<30 {
            if await releaseWhileTheValuesWait(operatorCase) { return }
        }
        Issue.record("in 30 attempts, the values never queued for the main actor within two seconds")
    }

    /// One attempt of the test above; false if it was set aside.
    @MainActor
    private func releaseWhileTheValuesWait(_ operatorCase: OperatorCase) async -> Bool {
        let heard = Recorder<Int>()
        let sources = (ValueEmitter<Int>(), ValueEmitter<Int>())
        let subscription = LockedBox<EmitterSubscription?>(
            operatorCase.emitter(sources.0, sources.1) += { @MainActor value in heard.record(value) })
        let relay = (subscription.value as! IsolatedSubscription<Int>).relay
        let sentAndReleased = Flag()
        let abandoned = Flag()
        let threadDone = Flag()
        startThread {
            defer { threadDone.raise() }
            operatorCase.sendFirst(sources.0, sources.1)
            // The values wait for the main actor, which is busy below; then the handle goes.
            while relay.backlog < operatorCase.expectedFirst.count {
                if abandoned.isRaised { return }
                usleep(100)
            }
            subscription.mutate { $0 = nil }
            sentAndReleased.raise()
        }
        let deadline = ContinuousClock.now + .seconds(2)
        while !sentAndReleased.isRaised, ContinuousClock.now < deadline { usleep(100) }  // keeps the main actor busy
        guard sentAndReleased.isRaised else {
            abandoned.raise()
            #expect(await eventually { @Sendable in threadDone.isRaised })
            return false
        }
        #expect(heard.values.isEmpty)
        #expect(await eventually { @Sendable in heard.values == operatorCase.expectedFirst })
        operatorCase.sendLater(sources.0, sources.1)
        #expect(await eventually { @Sendable in heard.values == operatorCase.expectedFirst + operatorCase.expectedLater })
        return true
    }
}

/// An operator, how to drive it, and what a handler of it hears.
struct OperatorCase: Sendable, CustomTestStringConvertible {
    let name: String
    let emitter: @Sendable (ValueEmitter<Int>, ValueEmitter<Int>) -> AnyEmitter<Int>
    let sendFirst: @Sendable (ValueEmitter<Int>, ValueEmitter<Int>) -> Void
    let expectedFirst: [Int]
    let sendLater: @Sendable (ValueEmitter<Int>, ValueEmitter<Int>) -> Void
    let expectedLater: [Int]

    var testDescription: String { name }

    static let all: [OperatorCase] = [
        OperatorCase(
            name: "merge", emitter: { AnyEmitter($0.merge(with: $1)) },
            sendFirst: { a, b in (0..<5).forEach { $0.isMultiple(of: 2) ? a.send($0) : b.send($0) } },
            expectedFirst: [0, 1, 2, 3, 4], sendLater: { a, _ in a.send(5) }, expectedLater: [5]),
        OperatorCase(
            name: "zip", emitter: { AnyEmitter($0.zip($1).map { $0.0 * 10 + $0.1 }) },
            sendFirst: { a, b in
                (0..<5).forEach {
                    a.send($0)
                    b.send($0)
                }
            },
            expectedFirst: [0, 11, 22, 33, 44],
            sendLater: { a, b in
                a.send(5)
                b.send(5)
            }, expectedLater: [55]),
        OperatorCase(
            name: "combineLatest", emitter: { AnyEmitter($0.combineLatest($1).map { $0.0 * 10 + $0.1 }) },
            sendFirst: { a, b in
                b.send(1)
                (0..<5).forEach { a.send($0) }
            },
            expectedFirst: [1, 11, 21, 31, 41], sendLater: { _, b in b.send(2) }, expectedLater: [42]),
        OperatorCase(
            name: "dropUntil", emitter: { AnyEmitter($0.dropUntil(emitter: $1)) },
            sendFirst: { a, b in
                a.send(-1)
                b.send(0)
                (0..<5).forEach { a.send($0) }
            },
            expectedFirst: [0, 1, 2, 3, 4], sendLater: { a, _ in a.send(5) }, expectedLater: [5]),
        OperatorCase(
            name: "flatMap", emitter: { first, second in AnyEmitter(first.flatMap { _ in second }) },
            sendFirst: { a, b in
                a.send(0)
                (0..<5).forEach { b.send($0) }
            },
            expectedFirst: [0, 1, 2, 3, 4], sendLater: { _, b in b.send(5) }, expectedLater: [5]),
        OperatorCase(
            name: "delay", emitter: { first, _ in AnyEmitter(first.delay(interval: .zero)) },
            sendFirst: { a, _ in (0..<5).forEach { a.send($0) } },
            expectedFirst: [0, 1, 2, 3, 4], sendLater: { a, _ in a.send(5) }, expectedLater: [5]),
        OperatorCase(
            name: "debounce", emitter: { first, _ in AnyEmitter(first.debounce(interval: .milliseconds(1))) },
            sendFirst: { a, _ in (0..<5).forEach { a.send($0) } },
            expectedFirst: [4], sendLater: { a, _ in a.send(5) }, expectedLater: [5]),
        OperatorCase(
            name: "throttle", emitter: { first, _ in AnyEmitter(first.throttle(interval: .milliseconds(1))) },
            sendFirst: { a, _ in a.send(0) },
            expectedFirst: [0], sendLater: { a, _ in a.send(5) }, expectedLater: [5]),
    ]
}

/// An actor whose handler runs on it, and that can be kept busy.
///
/// It runs on a dispatch queue of its own, not on Swift's cooperative pool: keeping it busy then
/// holds that queue's thread, not one of the pool's (one per core), which every other test of
/// the process needs.
actor Listener {
    private nonisolated let executor = QueueExecutor()
    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
    private(set) var heard: [Int] = []
    private nonisolated let busy = Flag()
    private nonisolated let freed = Flag()

    nonisolated var isBusy: Bool { busy.isRaised }

    func listen<Source: Emitter>(to emitter: Source, released: Recorder<Bool>) -> EmitterSubscription
    where Source.Value == Int {
        let watcher = DeinitWatcher { released.record(true) }
        return emitter += { value in
            _ = watcher
            self.heard.append(value)
        }
    }

    /// Keeps the actor busy until ``free()``.
    func stayBusy() {
        busy.raise()
        while !freed.isRaised { usleep(100) }
    }

    nonisolated func free() {
        freed.raise()
    }

    /// Keeps the actor busy until `flag` is raised, then cancels `subscription`, on the actor.
    func cancel(_ subscription: EmitterSubscription, whenTrue flag: Flag) {
        busy.raise()
        while !flag.isRaised { usleep(100) }
        subscription.cancel()
    }
}
