import ComposeTestSupport
import Testing

@testable import ComposeEmitters

/// `!+=` returns a subscription that is cancelled once the handler has run, wherever the handler
/// was written: on the delivering thread for a nonisolated one, on its actor for an isolated one.
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
}
