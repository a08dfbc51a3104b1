import ComposeMachinery
import ComposeStore
import ComposeTestSupport
import Foundation
import Synchronization
import Testing

@testable import ComposeEmitters

// Tests (operators on actors, scopes, cancellation of the
// library's bridges). Every wait is bounded: a deadlock shows as a failed expectation, never a
// hang. Blocking work runs on threads of its own or on actors on a dispatch queue of their own.

// MARK: - Helpers

/// An actor on a dispatch queue of its own whose operator closures (written in its methods) run
/// there. `hold()` keeps it busy until `release` is raised (at most 10 s).
actor ActorStage {
    private nonisolated let executor = QueueExecutor()
    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
    nonisolated let held = Flag()
    nonisolated let release = Flag()
    /// Raised by the test once the scope's `end()` (or the `cancel()`) has returned.
    nonisolated let closed = Flag()
    nonisolated let calls = Atomic<Int>(0)
    nonisolated let lateCalls = Atomic<Int>(0)

    /// `emitter.withCurrent()` mapped by a closure isolated to this actor.
    func mapped(_ emitter: ValueEmitter<Int>) -> Emitters.Map<Emitters.WithCurrent<Int>, Int> {
        emitter.withCurrent().map { value in
            self.note()
            return value
        }
    }

    /// `emitter` filtered by a closure isolated to this actor.
    func filtered(_ emitter: ValueEmitter<Int>) -> Emitters.Filter<ValueEmitter<Int>> {
        emitter.filter { _ in
            self.note()
            return true
        }
    }

    private func note() {
        calls.add(1, ordering: .relaxed)
        if closed.isRaised { lateCalls.add(1, ordering: .relaxed) }
    }

    nonisolated func holdOnItsExecutor() {
        Task { await self.hold() }
    }

    private func hold() {
        held.raise()
        let deadline = ContinuousClock.now + .seconds(120)  // released by the test; long under load
        while !release.isRaised, ContinuousClock.now < deadline { usleep(100) }
    }
}

// MARK: - Scopes and operators on actors

@Suite struct OperatorStageScopeTests {
    /// A subscription whose chain has an operator closure isolated to an actor is being
    /// registered on another thread when the scope ends (its registration is slow: a second,
    /// merged source computes its current value). `end()` closes the registration's gate, which
    /// stops only the *handler's* relay; the operator's own relay, already holding a value for
    /// the actor, is left running until the registration returns. So the actor's `map` closure
    /// is called after `end()` returned.
    ///
    /// Promises: "Once any `end()` of an `ObservationScope` has returned, no handler of the scope
    /// is called (a handler on an actor not at all ...)"; "a subscription being registered while
    /// the scope ends ... is stopped by that `end()` as the scope's other subscriptions are";
    /// operators: "once `cancel()` has returned, neither it [the operator's closure] nor the
    /// handler is called". With `registering: false` (the control) the registration has
    /// returned before the end, and the closure is not called.
    @Test(.timeLimit(.minutes(5)), arguments: [true, false])
    func anActorMapClosureIsSilentOnceAnEndDuringItsRegistrationReturned(registering: Bool) async {
        let stage = ActorStage()
        let first = ValueEmitter<Int>()
        first.send(1)
        let second = ValueEmitter<Int>()
        second.send(2)
        let mapped = await stage.mapped(first)

        // The actor is busy, so the value its `map` closure must see waits for it.
        stage.holdOnItsExecutor()
        #expect(await eventually(timeout: .seconds(5)) { stage.held.isRaised })

        let slowEntered = Flag()
        let slowRelease = Flag()
        let slow = second.withCurrent().map { value -> Int in
            slowEntered.raise()
            if registering {
                let deadline = ContinuousClock.now + .seconds(120)  // released by the test; long under load
                while !slowRelease.isRaised, ContinuousClock.now < deadline { usleep(100) }
            }
            return value
        }
        let scope = ObservationScope(label: " registering")
        let heard = LockedBox<[Int]>([])
        let registered = Flag()
        startThread {
            scope.run {
                _ = (mapped + slow) += { value in heard.mutate { $0.append(value) } }
            }
            registered.raise()
        }
        #expect(await eventually(timeout: .seconds(5)) { slowEntered.isRaised })
        if !registering { #expect(await eventually(timeout: .seconds(5)) { registered.isRaised }) }
        if registering { #expect(scope.registeringCount == 1) }

        scope.end()
        stage.closed.raise()  // end() has returned
        stage.release.raise()  // the actor may now run what waits for it
        // Give the actor time to run the closure, if it is still wired.
        _ = await eventually(timeout: .seconds(2)) { stage.calls.load(ordering: .relaxed) > 0 }
        slowRelease.raise()
        #expect(await eventually(timeout: .seconds(5)) { registered.isRaised })
        #expect(
            stage.lateCalls.load(ordering: .relaxed) == 0,
            "the actor's map closure ran after the scope's end() returned (registering: \(registering))")
        #expect(heard.value.filter { $0 == 1 }.isEmpty)
    }

    /// A child scope that ends while a registration in it is under way (a nonisolated handler,
    /// nothing on any actor) is not settled when it ends, so it stays attached to its parent,
    /// and `childCount` counts it after the registration returned, indefinitely.
    ///
    /// `childCount`: "the number of child scopes that have not ended, or ended while a handler
    /// of theirs was still running on its actor"; "One that ends first detaches from its parent
    /// once nothing of it is left to wait for".
    @Test(.timeLimit(.minutes(5)), arguments: [true, false])
    func aChildThatEndsDuringARegistrationLeavesItsParentOnceItReturns(registering: Bool) async {
        let parent = ObservationScope(label: " parent")
        let child = parent.makeChild(label: " child")
        let source = ValueEmitter<Int>()
        source.send(1)
        let entered = Flag()
        let release = Flag()
        let slow = source.withCurrent().map { value -> Int in
            entered.raise()
            if registering {
                let deadline = ContinuousClock.now + .seconds(120)  // released by the test; long under load
                while !release.isRaised, ContinuousClock.now < deadline { usleep(100) }
            }
            return value
        }
        let registered = Flag()
        startThread {
            child.run { _ = slow += { _ in } }
            registered.raise()
        }
        #expect(await eventually(timeout: .seconds(5)) { entered.isRaised })
        if !registering { #expect(await eventually(timeout: .seconds(5)) { registered.isRaised }) }
        child.end()
        release.raise()
        #expect(await eventually(timeout: .seconds(5)) { registered.isRaised })
        #expect(child.activeSubscriptionCount == 0)
        // Nothing of the child is left to wait for: no handler on an actor, no registration.
        let detached = await eventually(timeout: .seconds(2)) { parent.childCount == 0 }
        #expect(detached, "childCount is \(parent.childCount) for a child that ended with no handler on an actor")
        _ = child
    }

}

// MARK: - Bridges

@Suite struct BridgeStopTests {
    /// `Emitters.Future.cancel()`: "Cancels the operation; nothing is sent afterwards." An
    /// operation that does not throw on cancellation (it waits for something that ignores it)
    /// returns its result after `cancel()` returned, and the result is sent to the subscribers.
    @Test(.timeLimit(.minutes(5)))
    func aFutureSendsNothingOnceCancelReturned() async {
        let started = Flag()
        let finish = Flag()
        let future = Emitters.Future<Int, Never> {
            started.raise()
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                startThread {
                    _ = spinUntil(timeout: .seconds(10)) { finish.isRaised }
                    continuation.resume()
                }
            }
            return 1
        }
        let cancelled = Flag()
        let late = LockedBox<[Int]>([])
        let subscription =
            future += { result in
                if cancelled.isRaised, case .success(let value) = result { late.mutate { $0.append(value) } }
            }
        #expect(await eventually(timeout: .seconds(5)) { started.isRaised })
        future.cancel()
        cancelled.raise()
        finish.raise()
        _ = await eventually(timeout: .seconds(2)) { !late.value.isEmpty }
        #expect(late.value.isEmpty, "the future sent \(late.value) after its cancel() returned")
        subscription.cancel()
    }

    /// `AsyncSequenceEmitter.cancel()`: "Stops the iteration; nothing is sent afterwards." An
    /// `AsyncStream` (which honours cancellation) with elements buffered: after `cancel()` the
    /// iteration goes on handing the buffered elements over, and each is sent.
    @Test(.timeLimit(.minutes(5)))
    func anAsyncSequenceEmitterSendsNothingOnceCancelReturned() async {
        let (stream, continuation) = AsyncStream<Int>.makeStream()
        for value in 0..<200_000 { continuation.yield(value) }
        let emitter = stream.emitter()
        let cancelled = Flag()
        let heard = Atomic<Int>(0)
        let late = Atomic<Int>(0)
        let subscription =
            emitter += { _ in
                heard.add(1, ordering: .relaxed)
                if cancelled.isRaised { late.add(1, ordering: .relaxed) }
            }
        #expect(await eventually(timeout: .seconds(5)) { heard.load(ordering: .relaxed) > 0 })
        emitter.cancel()
        cancelled.raise()
        try? await Task.sleep(for: .milliseconds(300))
        let lateCount = late.load(ordering: .relaxed)
        #expect(lateCount == 0, "\(lateCount) elements were sent after cancel() returned")
        subscription.cancel()
        continuation.finish()
    }
}

// MARK: - A second cancel of a chain of actor stages

/// An actor on a dispatch queue of its own whose `map` closures (written in its methods) run
/// there; the closure holds the actor while it handles `holdValue`, until `release` is raised.
actor MappingActor {
    private nonisolated let executor = QueueExecutor()
    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
    nonisolated let entered = Flag()
    nonisolated let release = Flag()
    nonisolated let closed = Flag()
    nonisolated let calls = Atomic<Int>(0)
    nonisolated let lateCalls = Atomic<Int>(0)
    nonisolated let holdValue: Int?

    init(holding holdValue: Int? = nil) {
        self.holdValue = holdValue
    }

    func mapping<Upstream: Emitter<Int>>(_ upstream: Upstream) -> Emitters.Map<Upstream, Int> {
        upstream.map { value in
            self.step(value)
            return value
        }
    }

    private func step(_ value: Int) {
        calls.add(1, ordering: .relaxed)
        if closed.isRaised { lateCalls.add(1, ordering: .relaxed) }
        guard value == holdValue else { return }
        entered.raise()
        let deadline = ContinuousClock.now + .seconds(120)  // released by the test; long under load
        while !release.isRaised, ContinuousClock.now < deadline { usleep(100) }
    }
}

@Suite struct ActorStageCancelTests {
    enum Second: String, CaseIterable, Sendable {
        /// A second `cancel()` of the subscription.
        case cancel
        /// A second `end()` of the scope the subscription was made in.
        case end
        /// Control: no second cancel; the closure is called while the first is under way.
        case none
    }

    /// A chain of three `map` stages, each written on an actor of its own (C, then A, then B),
    /// with a nonisolated handler. A first `cancel()` (thread 1) stops B's relay, then waits in
    /// A's for A's closure, in progress. A second `cancel()` (thread 2) stops B's relay again,
    /// and returns: nothing of it reaches A's or C's. A send that starts after the second
    /// cancel returned still reaches C's closure (its registration on the emitter is still
    /// there, its relay running).
    ///
    /// Promises: operators: "once `cancel()` has returned, neither it [the operator's closure]
    /// nor the handler is called"; `EmitterSubscription`: "Once `cancel()` has returned, no send
    /// that starts afterwards reaches the handler: any `cancel()`, a later one made while the
    /// first is still under way on another thread too"; `ObservationScope.end()`: "every
    /// `end()` cancels every subscription as the first does".
    @Test(.timeLimit(.minutes(5)), arguments: Second.allCases)
    func aSecondCancelStopsEveryActorStageUpstream(second: Second) async {
        let c = MappingActor()
        let a = MappingActor(holding: 0)
        let b = MappingActor()
        let emitter = ValueEmitter<Int>()
        let chain = await b.mapping(a.mapping(c.mapping(emitter)))
        let heard = LockedBox<[Int]>([])
        let scope = ObservationScope(label: " second cancel")
        let subscription = scope.run { chain += { value in heard.mutate { $0.append(value) } } }

        startThread { emitter.send(0) }
        #expect(await eventually(timeout: .seconds(5)) { a.entered.isRaised })  // A's closure holds A

        let firstReturned = Flag()
        startThread {
            if second == .end { scope.end() } else { subscription.cancel() }
            firstReturned.raise()
        }
        try? await Task.sleep(for: .milliseconds(100))
        #expect(!firstReturned.isRaised)  // waiting for A's closure

        if second != .none {
            let secondReturned = await returnsOnAThread(within: .seconds(1)) {
                if second == .end { scope.end() } else { subscription.cancel() }
            }
            if secondReturned {
                c.closed.raise()
                b.closed.raise()
                // A send that starts after the second cancel (or end) returned.
                _ = await returnsOnAThread(within: .seconds(2)) { emitter.send(1) }
                _ = await eventually(timeout: .seconds(1)) { c.lateCalls.load(ordering: .relaxed) > 0 }
            }
        }
        a.release.raise()
        #expect(await eventually(timeout: .seconds(5)) { firstReturned.isRaised })
        #expect(
            c.lateCalls.load(ordering: .relaxed) == 0,
            "C's map closure was called by a send that started after the second \(second) returned")
        #expect(b.lateCalls.load(ordering: .relaxed) == 0)
        #expect(!heard.value.contains(1))
    }
}
