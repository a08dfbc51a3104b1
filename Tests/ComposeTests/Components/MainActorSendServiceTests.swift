import ComposeTestSupport
import ComposeTesting
import Foundation
import Synchronization
import Testing

@testable import Compose

// A tree's service override scope when the sender is on the main actor: a main-actor handler is
// called at once, in the sending code's scope, for its value and for those it delivers meanwhile.
// Every wait is bounded. The service and the main-actor reader are QueuedSendServiceTests'.

/// The same tree with a main-actor `map` stage before a nonisolated handler.
struct MainActorMapServiceReader: Component {
    let greet = ValueEmitter<Int>()
    let heard = LockedBox<[String]>([])
    var observers: Void {
        greet.map { @MainActor value in "\(value):\(services.queueNamer.name)" } += { text in
            heard.mutate { $0.append(text) }
        }
    }
}

@Suite struct MainActorSendServiceTests {
    /// The sender is on the main actor, in a scope opened inside the tree's: the main-actor handler
    /// is called at once, in that scope.
    @MainActor
    @Test func aMainActorHandlerSentToOnTheMainActorRunsInTheSendersInnerScope() async {
        let tester = ComponentTester(MainActorNameReader(), services: { $0.queueNamer = QueueNamer(name: "tester") })
        let root = tester.root
        tester.run {
            Services.withOverrides({ $0.queueNamer = QueueNamer(name: "inner") }) { root.greet.send(1) }
        }
        let arrived = await mainActorSettles { root.heard.value.count == 1 }
        #expect(arrived)
        #expect(root.heard.value == ["1:inner"])
        tester.unmount()
    }

    /// The same for an operator closure on the main actor.
    @MainActor
    @Test func aMainActorMapSentToOnTheMainActorRunsInTheSendersInnerScope() async {
        let tester = ComponentTester(MainActorMapServiceReader(), services: { $0.queueNamer = QueueNamer(name: "tester") })
        let root = tester.root
        tester.run {
            Services.withOverrides({ $0.queueNamer = QueueNamer(name: "inner") }) { root.greet.send(1) }
        }
        let arrived = await mainActorSettles { root.heard.value.count == 1 }
        #expect(arrived)
        #expect(root.heard.value == ["1:inner"])
        tester.unmount()
    }

    /// A value sent from another thread while the main actor is busy waits for it; then the main
    /// actor sends in an inner scope, and that send delivers the waiting value before its own, in
    /// its scope.
    @MainActor
    @Test func aValueWaitingForTheMainActorIsDeliveredInTheScopeOfTheMainActorSendThatDrainsIt() async {
        let tester = ComponentTester(MainActorNameReader(), services: { $0.queueNamer = QueueNamer(name: "tester") })
        let root = tester.root
        let greet = root.greet
        let sent = Flag()
        startThread {
            greet.send(1)
            sent.raise()
        }
        let deadline = ContinuousClock.now + testWaitLimit
        while !sent.isRaised, ContinuousClock.now < deadline { usleep(100) }  // main actor busy
        #expect(sent.isRaised)
        tester.run {
            Services.withOverrides({ $0.queueNamer = QueueNamer(name: "inner") }) { greet.send(2) }
        }
        let arrived = await mainActorSettles { root.heard.value.count == 2 }
        #expect(arrived)
        #expect(root.heard.value == ["1:inner", "2:inner"])
        tester.unmount()
    }
}

// MARK: flatMap's inner registration and the host's ownership audit

/// Waits on the main actor, letting its jobs run, until `condition` holds or `timeout` passed.
@MainActor
func mainActorSettles(timeout: Duration = testWaitLimit, _ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while !condition() {
        if ContinuousClock.now >= deadline { return false }
        try? await Task.sleep(for: .milliseconds(1))
    }
    return true
}
