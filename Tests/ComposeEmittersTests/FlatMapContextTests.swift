import ComposeMachinery
import ComposeTestSupport
import Foundation
import Synchronization
import Testing

@testable import ComposeEmitters

// A flatMap subscribes to each inner emitter in its own subscription's context, whoever delivers
// the outer value: another scope's end (during that scope's registration) does not stop its inner
// stages. And chains of stages on actors stay silent once cancel() has returned, and release their
// closures. Every wait is bounded.

/// An actor on a dispatch queue of its own: operator closures written in its methods run there.
actor ActorMapStage {
    private nonisolated let executor = QueueExecutor()
    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
    nonisolated let calls = Atomic<Int>(0)

    /// `source` mapped by a closure isolated to this actor.
    func mapped(_ source: ValueEmitter<Int>) -> Emitters.Map<ValueEmitter<Int>, Int> {
        source.map { value in
            self.note()
            return value
        }
    }

    private func note() {
        calls.add(1, ordering: .relaxed)
    }
}

/// An actor on a dispatch queue of its own whose `flatMap` transform runs there.
actor ActorSwitcher {
    private nonisolated let executor = QueueExecutor()
    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    /// `outer` switching to `inner`, with the transform isolated to this actor.
    func following(
        _ outer: ValueEmitter<Int>, _ inner: Emitters.Map<ValueEmitter<Int>, Int>
    ) -> Emitters.FlatMap<ValueEmitter<Int>, Emitters.Map<ValueEmitter<Int>, Int>> {
        outer.flatMap { _ in inner }
    }
}

/// An actor whose map closure notes calls made after `closed` was raised.
actor LateActorMapStage {
    private nonisolated let executor = QueueExecutor()
    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
    nonisolated let closed = Flag()
    nonisolated let late = Atomic<Int>(0)

    func mapped(_ source: ValueEmitter<Int>) -> Emitters.Map<ValueEmitter<Int>, Int> {
        source.map { value in
            if self.closed.isRaised { self.late.add(1, ordering: .relaxed) }
            return value
        }
    }
}

@Suite struct FlatMapContextTests {
    /// A `flatMap` (nonisolated transform) whose inner emitter has a stage on an actor; its outer
    /// value is sent by a handler of ANOTHER scope while that handler hears the value
    /// `withCurrent()` hands over during its registration, and that handler then ends its own
    /// scope. The flatMap subscription is in no scope and never cancelled, so it must keep
    /// hearing the inner emitter.
    ///
    /// Promise (EmittersAndDelivery.md): "A subscription stays active until it is cancelled,
    /// until the `ObservationScope` it was made in ends, or until its emitter is deallocated."
    @Test func anotherScopesEndDuringItsRegistrationDoesNotStopAFlatMapsInnerStage() async {
        let stage = ActorMapStage()
        let outer = ValueEmitter<Int>()
        let innerSource = ValueEmitter<Int>()
        let inner = await stage.mapped(innerSource)
        let heard = Recorder<Int>()
        // In no scope, never cancelled.
        let followed = outer.flatMap { _ in inner } += { value in heard.record(value) }

        let trigger = ValueEmitter<Int>()
        trigger.send(0)
        let other = ObservationScope(label: "other")
        other.run {
            trigger.withCurrent() += { _ in
                outer.send(1)  // the flatMap subscribes to `inner` here, on this thread
                other.end()  // a handler ending its own scope while registered
            }
        }
        #expect(other.isEnded)
        #expect(!followed.isCancelled)

        innerSource.send(42)
        let arrived = await heard.wait(forCount: 1)
        #expect(arrived, "the flatMap's subscription (no scope, not cancelled) heard nothing: \(heard.values)")
        #expect(heard.values == [42])
        followed.cancel()
    }

    /// Control: the same without the other scope's end; the flatMap hears the inner value.
    @Test func withoutTheOtherScopesEndTheFlatMapHearsTheInnerStage() async {
        let stage = ActorMapStage()
        let outer = ValueEmitter<Int>()
        let innerSource = ValueEmitter<Int>()
        let inner = await stage.mapped(innerSource)
        let heard = Recorder<Int>()
        let followed = outer.flatMap { _ in inner } += { value in heard.record(value) }
        let trigger = ValueEmitter<Int>()
        trigger.send(0)
        let other = ObservationScope(label: "other")
        other.run {
            trigger.withCurrent() += { _ in outer.send(1) }
        }
        other.end()
        innerSource.send(42)
        #expect(await heard.wait(forCount: 1))
        #expect(heard.values == [42])
        followed.cancel()
    }

    /// The same with the flatMap's transform on an actor: the outer value, sent by the other
    /// scope's handler during its registration, reaches the transform later, on the actor; the
    /// inner stage it subscribes then must not be stopped by that other scope's end.
    @Test func anotherScopesEndDuringItsRegistrationDoesNotStopAnActorFlatMapsLaterInnerStage() async {
        let stage = ActorMapStage()
        let switcher = ActorSwitcher()
        let outer = ValueEmitter<Int>()
        let innerSource = ValueEmitter<Int>()
        let inner = await stage.mapped(innerSource)
        let heard = Recorder<Int>()
        let followed = await switcher.following(outer, inner) += { value in heard.record(value) }

        let trigger = ValueEmitter<Int>()
        trigger.send(0)
        let other = ObservationScope(label: "other")
        other.run {
            trigger.withCurrent() += { _ in
                outer.send(1)  // queued for the switcher's actor
                other.end()
            }
        }
        #expect(!followed.isCancelled)
        // Wait until the transform has run and subscribed to `inner`: a send on `innerSource`
        // reaches the stage only then. Keep sending (each a new value) until one is heard.
        var sent = 100
        let arrived = await eventually {
            sent += 1
            innerSource.send(sent)
            return heard.count > 0
        }
        #expect(
            arrived,
            "the flatMap's subscription (no scope, not cancelled) heard nothing; stage calls: \(stage.calls.load(ordering: .relaxed))"
        )
        followed.cancel()
    }

    /// Control for the test above: without the other scope's end, the same loop hears a value.
    @Test func anActorFlatMapsLaterInnerStageHearsWithoutTheOtherScopesEnd() async {
        let stage = ActorMapStage()
        let switcher = ActorSwitcher()
        let outer = ValueEmitter<Int>()
        let innerSource = ValueEmitter<Int>()
        let inner = await stage.mapped(innerSource)
        let heard = Recorder<Int>()
        let followed = await switcher.following(outer, inner) += { value in heard.record(value) }
        let trigger = ValueEmitter<Int>()
        trigger.send(0)
        let other = ObservationScope(label: "other")
        other.run {
            trigger.withCurrent() += { _ in outer.send(1) }
        }
        other.end()
        var sent = 100
        let arrived = await eventually {
            sent += 1
            innerSource.send(sent)
            return heard.count > 0
        }
        #expect(arrived)
        followed.cancel()
    }

    /// A cancelled `flatMap` whose transform, inner stage and handler are written on the main
    /// actor lets go of all three closures while its emitters live on.
    ///
    /// Promise (Guarantees.md): "a handler cancelled during a delivery is released when that
    /// delivery ends"; brief: a cancelled handler and its operator stages are released once no
    /// delivery runs them.
    @Test func aCancelledMainActorFlatMapReleasesItsClosures() async {
        let outer = ValueEmitter<Int>()
        let innerSource = ValueEmitter<Int>()
        let released = Recorder<String>()
        let heard = Recorder<Int>()
        do {
            let transformWatcher = DeinitWatcher { released.record("transform") }
            let stageWatcher = DeinitWatcher { released.record("stage") }
            let handlerWatcher = DeinitWatcher { released.record("handler") }
            let subscription =
                outer.flatMap { @MainActor _ in
                    _ = transformWatcher
                    return innerSource.map { @MainActor value in
                        _ = stageWatcher
                        return value
                    }
                } += { @MainActor value in
                    _ = handlerWatcher
                    heard.record(value)
                }
            outer.send(1)
            // The inner stage is registered on the main actor some time after: a thread sends
            // until a value arrives (a check that sent and looked at once could find its own
            // value not delivered yet, after a wait for the pool longer than the timeout).
            startThread {
                var sent = 100
                let deadline = ContinuousClock.now + testWaitLimit
                while heard.count == 0, ContinuousClock.now < deadline {
                    sent += 1
                    innerSource.send(sent)
                    usleep(1_000)
                }
            }
            let arrived = await heard.wait(forCount: 1)
            #expect(arrived)
            subscription.cancel()
        }
        let all = await released.wait(forCount: 3)
        #expect(all, "released: \(released.values)")
        _ = (outer, innerSource)
    }

    /// A map on an actor, then a filter on the main actor, then a handler on another actor's
    /// stage: cancelled from a thread while another thread sends. Once `cancel()` returned, no
    /// stage closure and no handler is called. 300 rounds.
    @Test func aMixedActorChainIsSilentOnceCancelReturnedWhileAnotherThreadSends() async {
        var lateTotal = 0
        for round in 0..<300 {
            let source = ValueEmitter<Int>()
            let stage = LateActorMapStage()
            let mapped = await stage.mapped(source)
            let closed = stage.closed
            let lateFilter = Atomic<Int>(0)
            let lateHandler = Atomic<Int>(0)
            let subscription =
                mapped.filter { @MainActor _ in
                    if closed.isRaised { lateFilter.add(1, ordering: .relaxed) }
                    return true
                } += { _ in
                    if closed.isRaised { lateHandler.add(1, ordering: .relaxed) }
                }
            let stop = Flag()
            let senderDone = Flag()
            startThread {
                var value = 0
                let deadline = ContinuousClock.now + .seconds(2)
                while !stop.isRaised, ContinuousClock.now < deadline {
                    value += 1
                    source.send(value)
                }
                senderDone.raise()
            }
            let cancelled = Flag()
            startThread {
                usleep(UInt32(50 + (round % 7) * 40))
                subscription.cancel()
                closed.raise()
                cancelled.raise()
            }
            #expect(await eventually { cancelled.isRaised })
            try? await Task.sleep(for: .milliseconds(2))
            stop.raise()
            #expect(await eventually { senderDone.isRaised })
            lateTotal +=
                stage.late.load(ordering: .relaxed) + lateFilter.load(ordering: .relaxed)
                + lateHandler.load(ordering: .relaxed)
        }
        #expect(lateTotal == 0)
    }
}
