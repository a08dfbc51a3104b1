import ComposeTestSupport
import ComposeTesting
import Foundation
import Synchronization
import Testing

@testable import Compose

// A diagnostic reported by a handler that a tester's operation calls before it returns fails the
// test: a nonisolated handler, and a main-actor one when the test runs on the main actor.

struct PoppingHome: Component {
    let go = SignalEmitter()
    var observers: Void { None }
}

struct MainActorPoppingOwner: RouterComponent {
    let home = PoppingHome()
    let other = PoppingHome()
    let router = Router(start: \Self.home)
    var observers: Void {
        home.go += { @MainActor in
            router.pop()  // popping the root: refused, a Diagnostic
        }
    }
}

struct NonisolatedPoppingOwner: RouterComponent {
    let home = PoppingHome()
    let other = PoppingHome()
    let router = Router(start: \Self.home)
    var observers: Void {
        home.go += {
            router.pop()  // popping the root: refused, a Diagnostic
        }
    }
}

@Suite struct TesterHandlerDiagnosticTests {
    @Test func aNonisolatedHandlersRefusalFailsTheTest() {
        withKnownIssue {
            let tester = ComponentTester(NonisolatedPoppingOwner())
            tester.send(tester.root.home.go)
            tester.unmount()
        }
    }

    /// On the main actor, the tester's send calls the main-actor handler at once.
    @MainActor
    @Test func aMainActorHandlersRefusalFailsATestOnTheMainActor() {
        withKnownIssue {
            let tester = ComponentTester(MainActorPoppingOwner())
            tester.send(tester.root.home.go)
            tester.unmount()
        }
    }
}
