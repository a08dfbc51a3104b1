import ComposeTestSupport
import Testing

@testable import ComposeEmitters

@Suite struct ObservationScopeTests {
    @Test func endingAScopeCancelsItsSubscriptions() {
        let emitter = SignalEmitter()
        let output = Recorder<Void>()
        let scope = ObservationScope(label: "test")
        scope.run {
            emitter += { output.record() }
            emitter.debounce(interval: .seconds(1)) += { output.record() }
            emitter.map { 1 }.undup() += { _ in output.record() }
        }
        #expect(emitter.subscriberCount == 3)
        #expect(scope.activeSubscriptionCount == 3)
        scope.end()
        #expect(emitter.subscriberCount == 0)
        #expect(scope.activeSubscriptionCount == 0)
        emitter.send()
        #expect(output.count == 0)
    }

    @Test func subscriptionsOutsideAScopeAreUntouched() {
        let emitter = SignalEmitter()
        let scope = ObservationScope()
        emitter += {}
        scope.run { emitter += {} }
        scope.end()
        #expect(emitter.subscriberCount == 1)
    }

    @Test func endingAParentEndsItsChildren() {
        let emitter = SignalEmitter()
        let parent = ObservationScope(label: "parent")
        let child = parent.makeChild(label: "child")
        let grandchild = child.makeChild(label: "grandchild")
        parent.run { emitter += {} }
        child.run { emitter += {} }
        grandchild.run { emitter += {} }
        #expect(parent.activeSubscriptionCount == 3)
        parent.end()
        #expect(child.isEnded && grandchild.isEnded)
        #expect(emitter.subscriberCount == 0)
    }

    @Test func aChildThatEndsFirstDetachesFromItsParent() {
        let parent = ObservationScope()
        for _ in 0..<100 {
            let child = parent.makeChild()
            child.end()
        }
        #expect(parent.childCount == 0)
    }

    @Test func aSubscriptionJoiningAnEndedScopeIsCancelledAtOnce() {
        let emitter = SignalEmitter()
        let scope = ObservationScope()
        scope.end()
        let subscription = scope.run { emitter += {} }
        #expect(subscription.isCancelled)
        #expect(emitter.subscriberCount == 0)
        #expect(scope.makeChild().isEnded)
    }

    @Test func tasksStartedInAScopeInheritIt() async {
        let emitter = SignalEmitter()
        let scope = ObservationScope()
        await scope.run {
            await Task { emitter += {} }.value
        }
        #expect(emitter.subscriberCount == 1)
        scope.end()
        #expect(emitter.subscriberCount == 0)
    }

    @Test func releasingAScopeEndsIt() {
        let emitter = SignalEmitter()
        do {
            let scope = ObservationScope()
            scope.run { emitter += {} }
        }
        #expect(emitter.subscriberCount == 0)
    }

    @Test func aLongLivedScopeSweepsCancelledSubscriptions() {
        let emitter = SignalEmitter()
        let scope = ObservationScope()
        scope.run {
            for _ in 0..<10_000 { (emitter += {}).cancel() }
        }
        #expect(emitter.subscriberCount == 0)
        #expect(scope.activeSubscriptionCount == 0)
        #expect(scope.retainedSubscriptionCount < 128)
    }
}
