import ComposeTestSupport
import Testing

@testable import ComposeEmitters

/// `!+=`, and `once()` subscribed to with `+=` or `subscribe`, return a subscription that is
/// cancelled once the handler has run, wherever the handler was written: on the delivering thread
/// for a nonisolated one, on its actor for an isolated one.
@Suite struct OnceSubscriptionTests {
    @MainActor
    @Test func aMainActorHandlersSubscriptionIsCancelledOnceItRan() {
        let emitter = ValueEmitter<Int>()
        let heard = LockedBox<[Int]>([])
        let scope = ObservationScope(label: "OnceSubscriptionTests")
        let subscription = scope.run { emitter !+= { @MainActor value in heard.mutate { $0.append(value) } } }
        emitter.send(1)  // on the main actor: heard before send returns
        emitter.send(2)
        #expect(heard.value == [1])
        #expect(subscription.isCancelled)
        #expect(scope.activeSubscriptionCount == 0)
        scope.end()
    }

    @MainActor
    @Test func aMainActorSignalHandlersSubscriptionIsCancelledOnceItRan() {
        let signal = SignalEmitter()
        let heard = LockedBox(0)
        let subscription = signal !+= { @MainActor in heard.mutate { $0 += 1 } }
        signal.send()
        signal.send()
        #expect(heard.value == 1)
        #expect(subscription.isCancelled)
    }

    @Test func aNonisolatedHandlersSubscriptionIsCancelledOnceItRan() {
        let emitter = ValueEmitter<Int>()
        let heard = LockedBox<[Int]>([])
        let subscription = emitter !+= { value in heard.mutate { $0.append(value) } }
        emitter.send(1)
        emitter.send(2)
        #expect(heard.value == [1])
        #expect(subscription.isCancelled)
    }

    @MainActor
    @Test func onceWithAMainActorHandlerCancelsItsSubscriptionOnceItRan() {
        let emitter = ValueEmitter<Int>()
        let heard = LockedBox<[Int]>([])
        let scope = ObservationScope(label: "once() on the main actor")
        let subscription = scope.run { emitter.once() += { @MainActor value in heard.mutate { $0.append(value) } } }
        let signal = SignalEmitter()
        let signalSubscription = signal.once().subscribe { @MainActor in heard.mutate { $0.append(-1) } }
        emitter.send(1)
        emitter.send(2)
        signal.send()
        signal.send()
        #expect(heard.value == [1, -1])
        #expect(subscription.isCancelled && signalSubscription.isCancelled)
        #expect(scope.activeSubscriptionCount == 0)
        scope.end()
    }

    /// With a handler on an actor of its own executor, values sent from another thread: the
    /// subscription is cancelled after the handler ran there, and its scope no longer counts it.
    @Test func onceWithAnActorHandlerCancelsItsSubscriptionOnceItRan() async {
        let emitter = ValueEmitter<Int>()
        let listener = OnceListener()
        let scope = ObservationScope(label: "once() on an actor")
        let viaOnce = await listener.subscribeOnce(to: emitter, in: scope)
        let viaOperator = await listener.subscribeNext(to: emitter)
        await onThreads(1) { _ in
            emitter.send(1)
            emitter.send(2)
        }
        #expect(await eventually { viaOnce.isCancelled && viaOperator.isCancelled })
        #expect(listener.heard.value == [1, 1])
        #expect(scope.activeSubscriptionCount == 0)
        scope.end()
    }
}

/// An actor on a dispatch queue of its own that subscribes once.
private actor OnceListener {
    private nonisolated let executor = QueueExecutor()
    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
    nonisolated let heard = LockedBox<[Int]>([])

    func subscribeOnce(to emitter: ValueEmitter<Int>, in scope: ObservationScope) -> EmitterSubscription {
        scope.run { emitter.once() += { value in self.heard.mutate { $0.append(value) } } }
    }

    func subscribeNext(to emitter: ValueEmitter<Int>) -> EmitterSubscription {
        emitter !+= { value in self.heard.mutate { $0.append(value) } }
    }
}
