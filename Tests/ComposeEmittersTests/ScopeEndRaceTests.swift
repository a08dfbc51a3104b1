import ComposeTestSupport
import Foundation
import Testing

@testable import ComposeEmitters

/// Ends that race registrations and each other: none waits for a registration, so none waits
/// forever, and once one has returned, no handler of the scope is reached by a later send.
@Suite struct ScopeEndRaceTests {
    /// Subscription Y, joined, runs on an actor and ends the scope when thread A's registration
    /// of X sends to it; X's own `withCurrent()` handler ends the scope too. Both ends return.
    @Test(.timeLimit(.minutes(2)))
    func anActorHandlersEndAndARegisteringHandlersEndBothReturn() async {
        let scope = ObservationScope(label: "actor end and registering end")
        let trigger = ValueEmitter<Int>()
        let upstream = ValueEmitter<Int>()
        upstream.send(0)
        let ender = ScopeEnder()
        _ = await ender.listen(to: trigger, endingIn: scope)
        let registered = Flag()
        startThread {
            let sendsFirst = SendsBeforeRegistering(upstream: upstream.withCurrent(), trigger: trigger, scope: scope)
            scope.run { _ = sendsFirst += { _ in scope.end() } }
            registered.raise()
        }
        #expect(await eventually { registered.isRaised && ender.returned.isRaised })
    }

    /// Two scopes, two threads: each registers in its scope a `withCurrent()` handler that ends
    /// the other scope, once both are under way.
    @Test(.timeLimit(.minutes(2)))
    func handlersEndingEachOthersScopesWhileRegisteredBothReturn() async {
        let first = ObservationScope(label: "first")
        let second = ObservationScope(label: "second")
        #expect(await endEachOtherWhileRegistering(first, second))
    }

    /// The same across a parent and its child.
    @Test(.timeLimit(.minutes(2)))
    func aParentAndItsChildEndedByEachOthersRegisteringHandlersBothReturn() async {
        let parent = ObservationScope(label: "parent")
        let child = parent.makeChild(label: "child")
        #expect(await endEachOtherWhileRegistering(child, parent))
    }

    private func endEachOtherWhileRegistering(_ first: ObservationScope, _ second: ObservationScope) async -> Bool {
        let inHandler = LockedBox(0)
        let returned = LockedBox(0)
        for (mine, other) in [(first, second), (second, first)] {
            startThread {
                let flag = ValueEmitter<Bool>()
                flag.send(true)
                mine.run {
                    _ =
                        flag.withCurrent() += { _ in
                            inHandler.mutate { $0 += 1 }
                            let deadline = ContinuousClock.now + .seconds(5)
                            while inHandler.value < 2, ContinuousClock.now < deadline { usleep(100) }
                            other.end()
                        }
                }
                returned.mutate { $0 += 1 }
            }
        }
        return await eventually { returned.value == 2 }
    }

    /// Thread A registers X, whose registration (made upstream, not returned yet) sends to the
    /// joined Y, whose handler ends the scope on A. Thread B then ends the scope too, and sends:
    /// once B's `end()` has returned, X (which ended nothing) hears nothing. Ten rounds.
    @Test(.timeLimit(.minutes(2)))
    func aSubscriptionBeingRegisteredWhileAnotherHandlerEndsTheScopeHearsNothingAfterTheEnd() async {
        for _ in 0..<10 {
            let scope = ObservationScope(label: "third party")
            let trigger = ValueEmitter<Int>()
            let upstream = ValueEmitter<Int>()
            _ = scope.run { trigger += { _ in scope.end() } }
            let sendsAfter = SendsAfterRegistering(upstream: upstream, trigger: trigger)
            let heard = LockedBox<[Int]>([])
            let done = LockedBox(0)
            startThread {
                _ = scope.run { sendsAfter += { value in heard.mutate { $0.append(value) } } }
                done.mutate { $0 += 1 }
            }
            startThread {
                let deadline = ContinuousClock.now + .seconds(5)
                while !scope.isEnded, ContinuousClock.now < deadline { usleep(100) }
                scope.end()
                upstream.send(42)
                sendsAfter.proceed.raise()
                done.mutate { $0 += 1 }
            }
            #expect(await eventually { done.value == 2 })
            #expect(heard.value.isEmpty)
        }
    }

    /// Two handlers of one scope, on two actors, each end the scope once both are under way:
    /// each end stops the other's handler, which is ending the scope too. Both return.
    @Test(.timeLimit(.minutes(2)))
    func handlersOnTwoActorsEndingTheirScopeAtOnceBothReturn() async {
        let scope = ObservationScope(label: "two actors")
        let emitter = SignalEmitter()
        let inHandler = LockedBox(0)
        let enders = [ScopeEnder(), ScopeEnder()]
        for ender in enders {
            _ = await ender.listen(to: emitter, waitingFor: inHandler, endingIn: scope)
        }
        emitter.send()
        #expect(await eventually { enders.allSatisfy { $0.returned.isRaised } })
        #expect(scope.activeSubscriptionCount == 0)
    }

    /// The parent does not keep its children: releasing the last reference to a child ends it.
    @Test func releasingAChildScopeEndsIt() {
        let parent = ObservationScope(label: "parent")
        let emitter = ValueEmitter<Int>()
        let heard = LockedBox<[Int]>([])
        let subscription: EmitterSubscription
        do {
            let child = parent.makeChild(label: "child")
            subscription = child.run { emitter += { value in heard.mutate { $0.append(value) } } }
            #expect(parent.childCount == 1)
        }
        emitter.send(1)
        #expect(subscription.isCancelled)
        #expect(heard.value.isEmpty)
        #expect(parent.childCount == 0)
    }

    /// A child's last reference is released on one thread (its deinit ends it, waiting for a long
    /// call of its handler on an actor) while the parent ends on another: the parent's end reaches
    /// the child being released, so once it has returned, the call in progress has returned and
    /// no handler of the child is called, even with a value sent before. Were the parent's end to
    /// skip the child, it would return at once, while the long call runs and a value waits.
    @Test(.timeLimit(.minutes(2)))
    func aParentsEndWaitsForAChildBeingReleased() async {
        let parent = ObservationScope(label: "parent")
        let long = ValueEmitter<Int>()
        let queued = ValueEmitter<Int>()
        let progress = LockedBox<[String]>([])
        let watcher = ScopeWatcher()
        let listeners = [ScopeListener(), ScopeListener()]
        // The box holds the only reference, so the thread that empties it runs the child's deinit.
        let released = LockedBox<ObservationScope?>(parent.makeChild(label: "released"))
        watcher.scope = released.value
        _ = await listeners[0].listen(to: long, in: released.value!) { _ in
            progress.mutate { $0.append("long in") }
            usleep(500_000)
            progress.mutate { $0.append("long out") }
        }
        _ = await listeners[1].listen(to: queued, in: released.value!) { value in
            progress.mutate { $0.append("queued \(value)") }
            if value == 1 { usleep(200_000) }
        }
        long.send(1)
        #expect(await eventually(timeout: .seconds(10)) { progress.value.contains("long in") })
        queued.send(1)
        #expect(await eventually(timeout: .seconds(10)) { progress.value.contains("queued 1") })
        queued.send(2)  // waits for the second actor
        startThread { released.mutate { $0 = nil } }  // the deinit ends the child, waiting
        #expect(await eventually(timeout: .seconds(10)) { watcher.scope == nil })
        let atTheEnd = LockedBox<[String]?>(nil)
        startThread {
            parent.end()
            atTheEnd.mutate { $0 = progress.value }
        }
        #expect(await eventually { atTheEnd.value != nil })
        #expect(atTheEnd.value?.contains("long out") == true)
        for _ in 0..<10 { _ = await listeners[1].calls }  // the second actor has run what waited
        #expect(progress.value == atTheEnd.value)
    }
}

private final class ScopeWatcher: @unchecked Sendable {  // Written before it is read, across awaits.
    weak var scope: ObservationScope?
}

/// An actor, on a dispatch queue of its own, with handlers written on it.
private actor ScopeListener {
    private nonisolated let executor = QueueExecutor()
    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
    var calls = 0

    func listen(
        to emitter: ValueEmitter<Int>, in scope: ObservationScope, _ body: @escaping @Sendable (Int) -> Void
    ) -> EmitterSubscription {
        scope.run {
            emitter += { value in
                self.calls += 1
                body(value)
            }
        }
    }
}

/// An actor, on a dispatch queue of its own, whose handlers end a scope.
private actor ScopeEnder {
    private nonisolated let executor = QueueExecutor()
    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
    nonisolated let returned = Flag()

    /// Subscribes (in `scope`) a handler on this actor that ends `scope`.
    func listen(to emitter: ValueEmitter<Int>, endingIn scope: ObservationScope) -> EmitterSubscription {
        scope.run {
            emitter += { _ in
                scope.end()
                self.returned.raise()
            }
        }
    }

    /// Subscribes (in `scope`) a handler on this actor that counts itself in `inHandler`, waits
    /// (bounded) until two are in, and ends `scope`.
    func listen(
        to emitter: SignalEmitter, waitingFor inHandler: LockedBox<Int>, endingIn scope: ObservationScope
    ) -> EmitterSubscription {
        scope.run {
            emitter += {
                inHandler.mutate { $0 += 1 }
                let deadline = ContinuousClock.now + .seconds(5)
                while inHandler.value < 2, ContinuousClock.now < deadline { usleep(100) }
                scope.end()
                self.returned.raise()
            }
        }
    }
}

/// A registration that first sends on `trigger` (whose joined handler ends the scope on an
/// actor) and waits (bounded) until the scope has ended, then registers upstream.
private final class SendsBeforeRegistering<Upstream: Emitter>: Emitter, @unchecked Sendable {  // Immutable.
    typealias Value = Upstream.Value
    let upstream: Upstream
    let trigger: ValueEmitter<Int>
    let scope: ObservationScope

    init(upstream: Upstream, trigger: ValueEmitter<Int>, scope: ObservationScope) {
        self.upstream = upstream
        self.trigger = trigger
        self.scope = scope
    }

    func register(_ handler: @escaping @Sendable (Value) -> Void) -> EmitterSubscription {
        trigger.send(1)
        let deadline = ContinuousClock.now + .seconds(5)
        while !scope.isEnded, ContinuousClock.now < deadline { usleep(100) }
        return upstream.register(handler)
    }
}

/// A registration that registers upstream, then sends on `trigger` (whose joined handler ends
/// the scope), then waits (bounded) for `proceed`.
private final class SendsAfterRegistering: Emitter, @unchecked Sendable {  // Immutable.
    typealias Value = Int
    let upstream: ValueEmitter<Int>
    let trigger: ValueEmitter<Int>
    let proceed = Flag()

    init(upstream: ValueEmitter<Int>, trigger: ValueEmitter<Int>) {
        self.upstream = upstream
        self.trigger = trigger
    }

    func register(_ handler: @escaping @Sendable (Int) -> Void) -> EmitterSubscription {
        let registration = upstream.register(handler)
        trigger.send(1)
        let deadline = ContinuousClock.now + .seconds(5)
        while !proceed.isRaised, ContinuousClock.now < deadline { usleep(100) }
        return registration
    }
}
