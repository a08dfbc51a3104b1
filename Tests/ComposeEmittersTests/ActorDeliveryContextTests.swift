import ComposeMachinery
import ComposeTestSupport
import Foundation
import Synchronization
import Testing

@testable import ComposeEmitters

// Deliveries to actors take no sender's task-local values and keep every order; a main-actor
// send delivers at once; flatMap's inner subscriptions join its scope. Every wait is bounded.

enum SenderTag {
    @TaskLocal static var tag: String?
}

/// An actor on a dispatch queue of its own.
actor QueueExecutorActor {
    private nonisolated let executor = QueueExecutor()
    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
    nonisolated let heard = LockedBox<[String]>([])

    /// Subscribes a handler written on this actor, recording the value and the task-local tag.
    func subscribe(_ emitter: ValueEmitter<Int>) -> EmitterSubscription {
        emitter += { value in
            self.assertIsolated()
            self.heard.mutate { $0.append("\(value):\(SenderTag.tag ?? "none")") }
        }
    }

    /// A handler on this actor that sends `other` (whose handler is on this actor too) for each value.
    func subscribeForwarding(_ emitter: ValueEmitter<Int>, to other: ValueEmitter<Int>) -> EmitterSubscription {
        emitter += { value in
            self.heard.mutate { $0.append("in\(value)") }
            other.send(value)
            self.heard.mutate { $0.append("sent\(value)") }
        }
    }
}

@Suite struct ActorTaskLocalTests {
    /// EmittersAndDelivery.md, Task-local values: "One on an actor runs in a task that takes values
    /// from every sender queued by the time it runs, so it runs with none of theirs".
    @Test func aHandlerOnAnActorWithItsOwnExecutorRunsWithNoneOfTheSendersTaskLocals() async {
        let actor = QueueExecutorActor()
        let emitter = ValueEmitter<Int>()
        let subscription = await actor.subscribe(emitter)
        let done = Flag()
        startThread {
            for index in 0..<200 {
                SenderTag.$tag.withValue("sender") { emitter.send(index) }
            }
            done.raise()
        }
        #expect(await eventually { done.isRaised && actor.heard.value.count == 200 })
        #expect(actor.heard.value == (0..<200).map { "\($0):none" })
        subscription.cancel()
    }

    /// The same from a task (a structured child of the test).
    @Test func fromATaskToo() async {
        let actor = QueueExecutorActor()
        let emitter = ValueEmitter<Int>()
        let subscription = await actor.subscribe(emitter)
        await SenderTag.$tag.withValue("sender") {
            await Task {
                for index in 0..<200 { emitter.send(index) }
            }.value
        }
        #expect(await eventually { actor.heard.value.count == 200 })
        #expect(actor.heard.value == (0..<200).map { "\($0):none" })
        subscription.cancel()
    }

    /// A handler on an actor sends to an emitter whose handler is on the same actor: no deadlock,
    /// order kept.
    @Test func aHandlerOnAnActorSendingToAnotherHandlerOnItReturns() async {
        let actor = QueueExecutorActor()
        let first = ValueEmitter<Int>()
        let second = ValueEmitter<Int>()
        let forward = await actor.subscribeForwarding(first, to: second)
        let heard = await actor.subscribe(second)
        for index in 0..<50 { first.send(index) }
        #expect(await eventually { actor.heard.value.count == 150 })
        let received = actor.heard.value.filter { $0.contains(":") }
        #expect(received == (0..<50).map { "\($0):none" })
        forward.cancel()
        heard.cancel()
    }

    /// Each sender's values arrive in the order it sent them, to a handler on an actor with its own
    /// executor and to a main-actor handler, with four senders at once.
    @Test func eachSendersOrderOnActors() async {
        for _ in 0..<5 {
            let actor = QueueExecutorActor()
            let emitter = ValueEmitter<Int>()
            let onActor = await actor.subscribe(emitter)
            let mainHeard = LockedBox<[Int]>([])
            let onMain = await MainActor.run { emitter += { @MainActor value in mainHeard.mutate { $0.append(value) } } }
            await onThreads(4) { sender in
                for index in 0..<250 { emitter.send(sender * 1_000 + index) }
            }
            #expect(
                await eventually { actor.heard.value.count == 1_000 && mainHeard.value.count == 1_000 })
            let actorValues = actor.heard.value.map { Int($0.split(separator: ":")[0])! }
            for sender in 0..<4 {
                let mine = actorValues.filter { $0 / 1_000 == sender }
                #expect(mine == (0..<250).map { sender * 1_000 + $0 })
                let mainMine = mainHeard.value.filter { $0 / 1_000 == sender }
                #expect(mainMine == (0..<250).map { sender * 1_000 + $0 })
            }
            // Every handler sees the values in the same order.
            #expect(actorValues == mainHeard.value)
            onActor.cancel()
            onMain.cancel()
        }
    }
}

@Suite struct MainActorSendDeliveryTests {
    /// Guarantees.md: "a value sent on the main actor while no other thread is delivering is heard
    /// before `send` returns"; MainActorAndUILayers.md: "a value sent on the main actor while earlier
    /// ones still wait for it is delivered after them, before `send` returns".
    @MainActor
    @Test func aMainActorSendDeliversWhatWaitsAndItsOwnValueBeforeReturning() {
        for round in 0..<20 {
            let emitter = ValueEmitter<Int>()
            let heard = LockedBox<[Int]>([])
            let subscription = emitter += { @MainActor value in heard.mutate { $0.append(value) } }
            let sent = Flag()
            startThread {
                emitter.send(1)
                sent.raise()
            }
            let deadline = ContinuousClock.now + testWaitLimit
            while !sent.isRaised, ContinuousClock.now < deadline { usleep(20) }
            emitter.send(2)
            #expect(heard.value == [1, 2], "round \(round)")
            subscription.cancel()
            if heard.value != [1, 2] { break }
        }
    }
}

@Suite struct FlatMapScopeTests {
    /// Guarantees.md: "Once any `end()` of an `ObservationScope` has returned, no handler of the
    /// scope is called (a handler on an actor not at all ...)"; "An operator's closure (`map`, ...)
    /// written in main-actor code ... once `cancel()` has returned, neither it nor the handler is
    /// called". EmittersAndDelivery.md: "a subscription made in an ended scope registers nothing
    /// (not even the value `withCurrent()` hands over)". The flatMap's transform ends the flatMap's
    /// own scope (as a transform that pops its own screen would), then returns an inner chain with a
    /// map on the main actor.
    @MainActor
    @Test func anInnerMainActorStageIsNotCalledOnceTheTransformEndedTheScope() {
        let scope = ObservationScope()
        let outer = SignalEmitter()
        let inner = ValueEmitter<Int>()
        inner.send(7)
        let ended = Flag()
        let lateCalls = LockedBox<Int>(0)
        let handled = LockedBox<Int>(0)
        scope.run {
            outer.flatMap { @MainActor () -> Emitters.Map<Emitters.WithCurrent<Int>, Int> in
                scope.end()
                ended.raise()
                return inner.withCurrent().map { @MainActor value in
                    if ended.isRaised { lateCalls.mutate { $0 += 1 } }
                    return value
                }
            } += { _ in handled.mutate { $0 += 1 } }
        }
        outer.send()
        #expect(ended.isRaised)
        #expect(lateCalls.value == 0, "an inner stage on the main actor ran after end() had returned")
        #expect(handled.value == 0)
        inner.send(8)
        #expect(lateCalls.value == 0)
        #expect(scope.activeSubscriptionCount == 0)
    }

    /// The same with nonisolated closures: the inner stage is subscribed (in the ended scope) and
    /// hears the value withCurrent hands over.
    @Test func anInnerStageIsNotRegisteredOnceTheTransformEndedTheScope() {
        let scope = ObservationScope()
        let outer = SignalEmitter()
        let inner = ValueEmitter<Int>()
        inner.send(7)
        let ended = Flag()
        let lateCalls = LockedBox<Int>(0)
        scope.run {
            outer.flatMap { () -> Emitters.Map<Emitters.WithCurrent<Int>, Int> in
                scope.end()
                ended.raise()
                return inner.withCurrent().map { value in
                    if ended.isRaised { lateCalls.mutate { $0 += 1 } }
                    return value
                }
            } += { _ in }
        }
        outer.send()
        #expect(lateCalls.value == 0, "an inner stage registered after end() had returned heard a value")
    }

    /// A long-lived flatMap that switches inner emitters thousands of times keeps nothing of the old
    /// ones: the inner emitters are released, the scope holds one subscription.
    @Test func switchingThousandsOfTimesKeepsNothing() async {
        let scope = ObservationScope()
        let outer = ValueEmitter<Int>()
        let made = LockedBox<[WeakObject]>([])
        let heard = LockedBox<Int>(0)
        scope.run {
            outer.flatMap { value -> Emitters.Map<Emitters.WithCurrent<Int>, Int> in
                let inner = ValueEmitter<Int>()
                inner.send(value)
                made.mutate { $0.append(WeakObject(inner)) }
                return inner.withCurrent().map { $0 + 1 }
            } += { _ in heard.mutate { $0 += 1 } }
        }
        for index in 0..<2_000 { outer.send(index) }
        #expect(heard.value == 2_000)
        let alive = made.value.filter { $0.object != nil }.count
        #expect(alive <= 1, "inner emitters alive: \(alive)")
        // The flatMap's subscription and the inner one it follows, which joins its scope; the
        // cancelled inner ones are swept as the scope's list grows.
        #expect(scope.activeSubscriptionCount == 2)
        #expect(scope.retainedSubscriptionCount <= 130)
        scope.end()
    }

    /// The same with the inner stage on the main actor (a relay per inner emitter), switched by
    /// another thread: the relays and their emitters go.
    @Test func switchingWithMainActorInnerStagesKeepsNothing() async {
        let scope = ObservationScope()
        let outer = ValueEmitter<Int>()
        let made = LockedBox<[WeakObject]>([])
        let heard = LockedBox<Int>(0)
        _ = await MainActor.run {
            scope.run {
                outer.flatMap { value -> Emitters.Map<Emitters.WithCurrent<Int>, Int> in
                    let inner = ValueEmitter<Int>()
                    inner.send(value)
                    made.mutate { $0.append(WeakObject(inner)) }
                    return inner.withCurrent().map { @MainActor in $0 + 1 }
                } += { _ in heard.mutate { $0 += 1 } }
            }
        }
        let done = Flag()
        startThread {
            for index in 0..<500 { outer.send(index) }
            done.raise()
        }
        #expect(await eventually { done.isRaised })
        // Once the main actor has run every transform, only the newest inner emitter is alive, and
        // the scope has the flatMap's subscription and the inner one it follows.
        let settled = await eventually {
            made.value.count == 500 && made.value.filter { $0.object != nil }.count <= 1
                && scope.activeSubscriptionCount == 2
        }
        #expect(
            settled,
            "made \(made.value.count), alive \(made.value.filter { $0.object != nil }.count), active \(scope.activeSubscriptionCount)"
        )
        scope.end()
    }

    /// Nested flatMaps: the outer scope's end, made on another thread while values flow, leaves no
    /// stage called once it has returned.
    @Test func nestedFlatMapsAreSilentOnceTheScopeEnded() async {
        for _ in 0..<100 {
            let scope = ObservationScope()
            let a = ValueEmitter<Int>()
            let b = ValueEmitter<Int>()
            let c = ValueEmitter<Int>()
            let ended = Flag()
            let late = Atomic<Int>(0)
            scope.run {
                a.flatMap { _ in
                    b.flatMap { _ in
                        c.map { value in
                            if ended.isRaised { late.add(1, ordering: .relaxed) }
                            return value
                        }
                    }
                } += { _ in if ended.isRaised { late.add(1, ordering: .relaxed) } }
            }
            a.send(0)
            b.send(0)
            let stop = Flag()
            await onThreads(2) { index in
                if index == 0 {
                    var value = 0
                    while !stop.isRaised {
                        value += 1
                        switch value % 3 {
                        case 0: a.send(value)
                        case 1: b.send(value)
                        default: c.send(value)
                        }
                    }
                } else {
                    usleep(50)
                    scope.end()
                    ended.raise()
                    usleep(200)
                    stop.raise()
                }
            }
            late.store(0, ordering: .relaxed)
            a.send(-1)
            b.send(-1)
            c.send(-1)
            #expect(late.load(ordering: .relaxed) == 0)
            #expect(scope.activeSubscriptionCount == 0)
        }
    }
}

final class WeakObject: @unchecked Sendable {
    weak var object: AnyObject?
    init(_ object: AnyObject) { self.object = object }
}
