import ComposeTestSupport
import Foundation
import Observation
import Testing

@testable import Compose

@Suite struct HostTests {
    struct Leaf: Component {
        let tap = SignalEmitter()
        var observers: Void { None }
    }

    struct Parent: RouterComponent {
        let first = Leaf()
        let second = Leaf()
        let router = Router(start: \Self.first)
        var observers: Void { None }

        /// A computed property: not a route.
        var computed: Leaf { first }
    }

    // MARK: Refusals

    @Test func refusedNavigationsLeaveTheStackAndSayWhy() {
        let host = ComponentHost(Parent())
        let router = host.root.router
        let errors = Recorder<RoutingError.Kind>()
        router.errors += { errors.record($0.kind) }

        let found = diagnostics {
            #expect(!router.pop())  // the root
            #expect(!router.push(\Parent.first))  // already on the stack
            #expect(!router.push(\Parent.computed))  // not a stored property
            #expect(!router.push(\SeedAuthTests.AuthComponent.logIn))  // another owner's key path
        }
        #expect(errors.values == [.poppingRoot, .alreadyOnStack, .notRoutable, .notRoutable])
        #expect(found.count == 4)
        #expect(found[2].contains("not a stored property"))
        #expect(found[3].contains("rooted in AuthComponent"))
        #expect(router.paths == [\Parent.first])
        #expect(host.visibleIDs == ["Parent", "Parent/first"])
    }

    @Test func pushPopAndPopToRoot() {
        struct Deep: RouterComponent {
            let a = Leaf(), b = Leaf(), c = Leaf()
            let router = Router(start: \Self.a)
            var observers: Void { None }
        }
        let host = ComponentHost(Deep())
        let changes = Recorder<String>()
        host.root.router.didPush += { changes.record("push \($0.depth)") }
        host.root.router.didPop += { changes.record("pop \($0.depth)") }
        host.root.router.push(\Deep.b)
        host.root.router.push(\Deep.c, animated: false)
        #expect(host.visibleIDs == ["Deep", "Deep/c"])
        host.root.router.popToRoot()
        #expect(host.visibleIDs == ["Deep", "Deep/a"])
        #expect(changes.values == ["push 2", "push 3", "pop 1"])
        #expect(host.root.router.popToRoot())  // nothing to pop: fine, nothing sent
        #expect(changes.count == 3)
    }

    // MARK: The ownership rule

    struct Child: Component {
        let parentPing: SignalEmitter
        let own = SignalEmitter()
        var observers: Void {
            own += {}
            parentPing += {}  // the parent's emitter, handed down
        }
    }

    struct Holder: Component {
        let ping = SignalEmitter()
        let child: Child
        init() { child = Child(parentPing: ping) }
        var observers: Void {
            ping += {}
            child.own += {}  // a child's: fine
        }
    }

    @Test func observingAParentsEmitterIsReported() {
        let (host, found) = recordingDiagnostics { ComponentHost(Holder()) }
        #expect(found.count == 1)
        #expect(found.first?.contains("Child.observers subscribes to an emitter or store of Holder") == true)
        #expect(found.first?.contains("an enclosing component") == true)
        host.unmount()
    }

    // MARK: Lifecycle emitters

    @Test func didAppearOfAValueThatIsNotMountedIsReported() {
        let leaf = Leaf()
        let found = diagnostics { _ = leaf.didAppear }
        #expect(found.first?.contains("not part of a mounted component tree") == true)
    }

    @Test func didAppearOutsideObserversFindsTheMountedNode() {
        let host = ComponentHost(Parent())
        let appeared = Recorder<String>()
        host.root.second.didAppear += { appeared.record("second") }
        host.root.router.push(\Parent.second)
        #expect(appeared.values == ["second"])
    }

    @Test func manualVisibilityIsLeftToTheAdapter() throws {
        let host = ComponentHost(Parent(), visibility: .manual)
        #expect(host.visibleIDs.isEmpty)
        let node = try #require(host.node(\.second))
        let events = Recorder<String>()
        node.didAppear += { events.record("appear") }
        node.didDisappear += { events.record("disappear") }
        host.setVisible(node, true)
        host.setVisible(node, true)  // no change: nothing sent
        host.setVisible(node, false)
        #expect(events.values == ["appear", "disappear"])
    }

    // MARK: Observation and the event log

    @Test func theRouterIsObservable() {
        let host = ComponentHost(Parent())
        let changed = Recorder<Bool>()
        withObservationTracking {
            _ = host.root.router.path
        } onChange: {
            changed.record(true)
        }
        host.root.router.push(\Parent.second)
        #expect(changed.count == 1)
    }

    struct Logged: RouterComponent {
        let first = Leaf()
        let second = Leaf()
        let router = Router(start: \Self.first, label: "LoggedRouter")
        var observers: Void { None }
    }

    @Test func routesAndLifecycleAreLogged() async {
        // The log is process-wide and other tests log too: keep this test's own events, and
        // wait for them (another thread may be handing events over when these are recorded).
        let events = Recorder<String>()
        let tracing = EventLog.observe { event in
            guard event.source.hasPrefix("Logged"), event.kind != .send else { return }
            events.record("\(event.kind) \(event.source) \(event.payload)")
        }
        let host = ComponentHost(Logged())
        host.root.router.push(\Logged.second)
        let expected = [
            "lifecycle Logged didAppear", "lifecycle Logged/first didAppear",
            "navigation LoggedRouter push \\Logged.second",  // asked, then done
            "route LoggedRouter push +[\\Logged.second] (depth 2)",
            "lifecycle Logged/first didDisappear", "lifecycle Logged/second didAppear",
        ]
        #expect(await eventually { events.count >= expected.count })
        tracing.cancel()
        #expect(events.values == expected)
    }

    // MARK: Startup

    struct App: StartupComponent {
        let events: Recorder<String>
        let ready = SignalEmitter()
        var observers: Void {
            events.record("observers")
            didAppear += { events.record("didAppear") }
        }
        func willBindRootComponent() { events.record("willBind") }
        func didBindRootComponent() { events.record("didBind") }
    }

    @Test func startupHooksRunAroundBinding() {
        let events = Recorder<String>()
        let host = ComponentHost(App(events: events))
        #expect(events.values == ["willBind", "observers", "didBind", "didAppear"])
        host.unmount()
    }
}
