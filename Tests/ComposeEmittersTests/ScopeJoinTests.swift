import ComposeMachinery
import ComposeTestSupport
import Dispatch
import Foundation
import Testing

@testable import ComposeEmitters

/// A subscription made in a scope that has ended is never registered, and one being registered
/// while the scope ends is stopped by that `end()`, which does not wait for the registration.
@Suite struct ScopeJoinTests {
    /// Made (in a task the scope started, say) after the end, with `withCurrent()`, which hands
    /// the current value over as it registers: nothing is handed over.
    @Test func aSubscriptionMadeInAnEndedScopeIsNeverCalled() async {
        let emitter = ValueEmitter<Int>()
        emitter.send(7)
        let scope = ObservationScope(label: "ended")
        scope.end()
        let heard = LockedBox<[Int]>([])
        let subscriptions = scope.run {
            [
                emitter.withCurrent() += { value in heard.mutate { $0.append(value) } },
                emitter ~+= { value, _ in heard.mutate { $0.append(value) } },
                emitter.map { $0 * 2 } += { value in heard.mutate { $0.append(value) } },
            ]
        }
        let values = scope.run { emitter.values }
        emitter.send(8)
        #expect(subscriptions.allSatisfy { $0.isCancelled })
        #expect(heard.value.isEmpty)
        var iterator = values.makeAsyncIterator()
        #expect(await iterator.next() == nil)  // the stream is finished, not waiting
    }

    @MainActor
    @Test func aMainActorSubscriptionMadeInAnEndedScopeIsNeverCalled() {
        let emitter = ValueEmitter<Int>()
        emitter.send(7)
        let scope = ObservationScope(label: "ended, main actor")
        scope.end()
        let heard = LockedBox<[Int]>([])
        let subscription = scope.run { emitter.withCurrent() += { @MainActor value in heard.mutate { $0.append(value) } } }
        emitter.send(8)
        #expect(subscription.isCancelled)
        #expect(heard.value.isEmpty)
    }

    /// One thread's subscription is registered upstream, and held up before it joins, when
    /// another thread ends the scope: that `end()` returns while the registration is still held
    /// (it waits for none), and a value sent once it has returned reaches no handler. The
    /// registration, released then, cancels its subscription.
    @Test(.timeLimit(.minutes(5)))
    func anEndStopsASubscriptionBeingMadeOnAnotherThreadWithoutWaitingForIt() async {
        let emitter = ValueEmitter<Int>()
        let held = HeldRegistration(upstream: emitter)
        let scope = ObservationScope(label: "ending while joining")
        let heard = LockedBox<[Int]>([])
        let registeringAtTheEnd = LockedBox(-1)
        let subscription = LockedBox<EmitterSubscription?>(nil)
        await onThreads(2) { thread in
            if thread == 0 {
                let made = scope.run { held += { value in heard.mutate { $0.append(value) } } }
                subscription.mutate { $0 = made }
            } else {
                held.registered.wait()
                scope.end()
                registeringAtTheEnd.mutate { $0 = scope.registeringCount }
                emitter.send(1)
                held.release.raise()
            }
        }
        #expect(registeringAtTheEnd.value == 1)
        #expect(subscription.value?.isCancelled == true)
        #expect(heard.value.isEmpty)
        emitter.send(2)
        #expect(heard.value.isEmpty)
    }

    /// The same for a handler written on the main actor, with a value sent before the end and
    /// queued for the main actor: once `end()` has returned, the handler is not called at all,
    /// though the main actor runs before the registration returns.
    @Test(.timeLimit(.minutes(5)))
    func anEndStopsAMainActorSubscriptionBeingMadeOnAnotherThread() async {
        let emitter = ValueEmitter<Int>()
        let held = HeldRegistration(upstream: emitter)
        let scope = ObservationScope(label: "ending while joining, main actor")
        let heard = LockedBox<[Int]>([])
        let heardAtTheEnd = LockedBox<[Int]?>(nil)
        await onThreads(2) { thread in
            if thread == 0 {
                _ = scope.run { held += { @MainActor value in heard.mutate { $0.append(value) } } }
            } else {
                held.registered.wait()
                emitter.send(1)  // off the main actor: queued for it
                scope.end()
                heardAtTheEnd.mutate { $0 = heard.value }
                emitter.send(2)
                // Let the main actor run what waits for it before the registration returns (and
                // cancels the subscription itself).
                let mainActorRan = DispatchSemaphore(value: 0)
                Task { @MainActor in mainActorRan.signal() }
                _ = mainActorRan.wait(timeout: .now() + 20)
                held.release.raise()
            }
        }
        #expect(heard.value == heardAtTheEnd.value)
        #expect(!heard.value.contains(2))
    }

    /// A thread subscribes a main-actor handler with `withCurrent()`; the value handed over reaches
    /// the handler on the main actor while the registration is still under way (held until the
    /// scope has ended), and the handler ends the scope. Its end does not wait for the
    /// registration; the registration, finding the scope ended, cancels its subscription, which
    /// returns once the handler's call has: both return.
    @MainActor
    @Test(.timeLimit(.minutes(5)))
    func aMainActorHandlerEndingItsScopeWhileAnotherThreadRegistersItReturns() async {
        let emitter = ValueEmitter<Int>()
        emitter.send(1)
        let scope = ObservationScope(label: "ended on the main actor while joining")
        let held = HeldUntilTheScopeEnds(upstream: emitter.withCurrent(), scope: scope)
        let registered = Flag()
        let heard = LockedBox<[Int]>([])
        let subscription = LockedBox<EmitterSubscription?>(nil)
        startThread {
            let made = scope.run {
                held += { @MainActor value in
                    heard.mutate { $0.append(value) }
                    scope.end()
                }
            }
            subscription.mutate { $0 = made }
            registered.raise()
        }
        // The main actor stays free for the handler meanwhile; a deadlock shows after 20 s.
        for _ in 0..<20_000 where !registered.isRaised { try? await Task.sleep(for: .milliseconds(1)) }
        #expect(registered.isRaised)
        #expect(heard.value == [1])
        #expect(subscription.value?.isCancelled == true)
        emitter.send(2)
        #expect(heard.value == [1])
    }

    /// A handler that ends its scope on the value handed over as it registers hears nothing more,
    /// not even what the same registration hands over next (a `merge` of two `withCurrent()`):
    /// the end stopped it though its registration had not returned.
    @Test func aHandlerEndingItsScopeWhileRegisteredHearsNothingMore() {
        let first = ValueEmitter<Int>()
        let second = ValueEmitter<Int>()
        first.send(0)
        second.send(10)
        let scope = ObservationScope(label: "ended by its own replay")
        let heard = LockedBox<[Int]>([])
        let subscription = scope.run {
            first.withCurrent().merge(with: second.withCurrent()) += { value in
                heard.mutate { $0.append(value) }
                scope.end()
            }
        }
        #expect(subscription.isCancelled)
        #expect(heard.value.count == 1)
        first.send(1)
        second.send(11)
        #expect(heard.value.count == 1)
    }

    /// Two threads subscribe in one scope at once, each with a handler that ends the scope on the
    /// value handed over as it registers (each waits, bounded, for the other to be there too):
    /// neither end() waits for the other's registration, and both return.
    @Test(.timeLimit(.minutes(5)))
    func twoHandlersEndingTheirScopeWhileRegisteredDoNotWaitForEachOther() async {
        let scope = ObservationScope(label: "closed by two observers")
        let inHandler = LockedBox(0)
        let returned = LockedBox(0)
        for _ in 0..<2 {
            startThread {
                let flag = ValueEmitter<Bool>()
                flag.send(true)
                scope.run {
                    _ =
                        flag.withCurrent() += { _ in
                            inHandler.mutate { $0 += 1 }
                            let deadline = ContinuousClock.now + .seconds(5)
                            while inHandler.value < 2, ContinuousClock.now < deadline { usleep(100) }
                            scope.end()
                        }
                }
                returned.mutate { $0 += 1 }
            }
        }
        // Were they to wait for each other, neither would ever return: give up after `testWaitLimit`.
        #expect(await eventually { returned.value == 2 })
        #expect(inHandler.value == 2)
    }

    /// The same race left to the scheduler, 100 rounds.
    @Test(.timeLimit(.minutes(5)))
    func handlersEndingTheirScopeWhileRegisteredOnTwoThreadsNeverDeadlock() async {
        let rounds = LockedBox(0)
        startThread {
            for _ in 0..<100 {
                let scope = ObservationScope(label: "race")
                let group = DispatchGroup()
                for _ in 0..<2 {
                    group.enter()
                    startThread {
                        let flag = ValueEmitter<Bool>()
                        flag.send(true)
                        scope.run { _ = flag.withCurrent() += { _ in scope.end() } }
                        group.leave()
                    }
                }
                guard group.wait(timeout: .now() + 20) == .success else { return }
                rounds.mutate { $0 += 1 }
            }
        }
        #expect(await eventually(timeout: .seconds(40)) { rounds.value == 100 })
    }
}

/// An emitter whose registration, once made upstream, waits (up to `testWaitLimit`) until `release` is
/// raised before it returns.
private final class HeldRegistration: Emitter, @unchecked Sendable {
    typealias Value = Int
    let upstream: ValueEmitter<Int>
    let registered = DispatchSemaphore(value: 0)
    let release = Flag()

    init(upstream: ValueEmitter<Int>) {
        self.upstream = upstream
    }

    func register(_ handler: @escaping @Sendable (Int) -> Void) -> EmitterSubscription {
        let registration = upstream.register(handler)
        registered.signal()
        let deadline = ContinuousClock.now + testWaitLimit
        while !release.isRaised, ContinuousClock.now < deadline { usleep(100) }
        return registration
    }
}

/// A scope ends when its last reference is released, whatever its subscriptions run: the tasks of
/// a timer or of a sequence-fed emitter do not hold the scope they were subscribed in.
@Suite struct ScopeReleaseTests {
    final class WeakScope: @unchecked Sendable {
        weak var scope: ObservationScope?
    }

    @Test func releasingTheLastReferenceEndsAScopeWithATimerOrASequenceSubscribed() async {
        let (stream, continuation) = AsyncStream<Int>.makeStream()
        let future = Emitters.Future { () async -> Int in
            try? await Task.sleep(for: .seconds(3_600))
            return 1
        }
        let watcher = WeakScope()
        let subscriptions: [EmitterSubscription]
        do {
            let scope = ObservationScope(label: "released")
            watcher.scope = scope
            subscriptions = scope.run {
                [
                    Emitters.Timer(interval: .milliseconds(5), clock: ContinuousClock()) += { _ in },
                    stream.emitter() += { _ in },
                    future += { _ in },
                    SignalEmitter().debounce(interval: .seconds(3_600)) += {},
                ]
            }
        }
        #expect(watcher.scope == nil)
        #expect(subscriptions.allSatisfy { $0.isCancelled })
        continuation.finish()
    }

    @Test func aTaskStartedInRunNeitherKeepsTheScopeNorSubscribesInItOnceItIsGone() async {
        let (resumed, resume) = AsyncStream<Void>.makeStream()
        let watcher = WeakScope()
        let emitter = ValueEmitter<Int>()
        let heard = LockedState<[Int]>([])
        let task: Task<(current: Bool, cancelled: Bool), Never>
        do {
            let scope = ObservationScope(label: "released while its task waits")
            watcher.scope = scope
            task = scope.run {
                Task {
                    for await _ in resumed { break }
                    let subscription = emitter += { value in heard.withLock { $0.append(value) } }
                    return (ObservationScope.current != nil, subscription.isCancelled)
                }
            }
        }
        #expect(watcher.scope == nil)
        resume.yield()
        let (current, cancelled) = await task.value
        emitter.send(1)
        #expect(!current)
        #expect(cancelled)
        #expect(heard.withLock { $0 }.isEmpty)
    }
}

/// An emitter whose registration, once made upstream, waits (up to `testWaitLimit`) until `scope` has ended.
private final class HeldUntilTheScopeEnds<Upstream: Emitter>: Emitter, @unchecked Sendable {  // Immutable.
    typealias Value = Upstream.Value
    let upstream: Upstream
    let scope: ObservationScope

    init(upstream: Upstream, scope: ObservationScope) {
        self.upstream = upstream
        self.scope = scope
    }

    func register(_ handler: @escaping @Sendable (Value) -> Void) -> EmitterSubscription {
        let registration = upstream.register(handler)
        let deadline = ContinuousClock.now + testWaitLimit
        while !scope.isEnded, ContinuousClock.now < deadline { usleep(100) }
        return registration
    }
}
