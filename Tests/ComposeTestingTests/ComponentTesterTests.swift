import Compose
import ComposeTestSupport
import ComposeTesting
import Foundation
import Testing

@Suite struct ComponentTesterTests {
    struct LogInComponent: Component {
        let openSignUp = SignalEmitter()
        var observers: Void { None }
    }

    struct SignUpComponent: Component {
        let openLogIn = SignalEmitter()
        var observers: Void { None }
    }

    struct EditorComponent: Component {
        @Store var state: Draft
        let close = SignalEmitter()
        @EnclosingRouter var router
        var observers: Void {
            close += { router.pop() }
        }
    }

    struct Draft: AnyState {
        var text = ""
    }

    struct AuthComponent: RouterComponent {
        let logIn = LogInComponent()
        let signUp = SignUpComponent()
        let editor = DynamicComponent<EditorComponent>()
        let openEditor = SignalEmitter()
        let router = Router(start: \Self.logIn)
        var observers: Void {
            logIn.openSignUp += { router.replace(\Self.signUp) }
            signUp.openLogIn += { router.replace(\Self.logIn) }
            openEditor += {
                editor.create(EditorComponent())
                router.push(\Self.editor)
            }
        }
    }

    @Test func drivesATreeAndChecksIt() {
        let tester = ComponentTester(AuthComponent())
        tester.expectVisible(["AuthComponent", "AuthComponent/logIn"])
        tester.send(tester.root.logIn.openSignUp)
        tester.expectVisible(\.signUp)
        tester.expectVisible(\.logIn, false)
        tester.expectStack(tester.root.router, [\AuthComponent.signUp])
        tester.send(tester.root.openEditor)
        tester.expectVisible(["AuthComponent", "AuthComponent/editor"])
        tester.unmount()
    }

    @Test func wrongExpectationsFail() {
        let tester = ComponentTester(AuthComponent())
        expectFailure("The visible components do not match", "+   [1]: \"AuthComponent/logIn\"") {
            tester.expectVisible(["AuthComponent", "AuthComponent/signUp"])
        }
        expectFailure("Router<AuthComponent>'s stack does not match") {
            tester.expectStack(tester.root.router, [\AuthComponent.signUp])
        }
        tester.unmount()
    }

    @Test func aRefusedNavigationFailsTheTest() {
        let tester = ComponentTester(AuthComponent())
        expectFailure("Compose reported: Router<AuthComponent> refused: poppingRoot") {
            tester.run { _ = tester.root.router.pop() }
        }
        tester.unmount()
    }

    /// Holds what a leaking observer captured, so the leak is real.
    nonisolated(unsafe) static var leaked: [SignalEmitter] = []

    @Test func aLeakIsReportedAtUnmount() {
        let tester = ComponentTester(AuthComponent())
        tester.send(tester.root.openEditor)
        // A created component's emitter kept alive by the test: reported.
        Self.leaked.append(tester.root.editor.component!.close)
        expectFailure("After unmounting, still alive:", "a SignalEmitter of a created component") {
            tester.unmount()
        }
        Self.leaked.removeAll()
    }

    /// A parent that hands its own store (and emitter) to a created child: after unmounting, the
    /// parent, which the test still holds, keeps them, and that is no leak.
    @Test func whatAParentHandsToACreatedChildIsNotALeak() {
        struct Settings: AnyState {
            var volume = 0
        }
        struct SettingsSheet: Component {
            let settings: Store<Settings>
            let done: SignalEmitter
            var observers: Void { None }
        }
        struct Screen: Component {
            @Store var settings: Settings
            let saved = SignalEmitter()
            let sheet = DynamicComponent<SettingsSheet>()
            let openSheet = SignalEmitter()
            var observers: Void {
                openSheet += { sheet.create(SettingsSheet(settings: $settings, done: saved)) }
            }
        }
        let tester = ComponentTester(Screen())
        tester.send(tester.root.openSheet)
        #expect(tester.root.sheet.isCreated)
        tester.unmount()
    }

    /// What the parent hands over may sit in its stored properties less directly: an array, a
    /// dictionary, an existential. The parent keeps it all the same.
    @Test func whatAParentHoldsInsideItsValuesIsNotALeak() {
        final class Model: Sendable {}
        struct Sheet: Component {
            let done: SignalEmitter
            let models: [Model]
            var observers: Void { None }
        }
        struct Screen: Component {
            let buttons = [SignalEmitter(), SignalEmitter()]
            let byName = ["a": Model()]
            let existential: any Sendable = Model()
            let sheet = DynamicComponent<Sheet>()
            let open = SignalEmitter()
            var observers: Void {
                open += {
                    sheet.create(
                        Sheet(done: buttons[1], models: [byName["a"]!, existential as! Model]))
                }
            }
        }
        let tester = ComponentTester(Screen())
        tester.send(tester.root.open)
        #expect(tester.root.sheet.isCreated)
        tester.unmount()
    }

    @Test func manualVisibility() {
        let tester = ComponentTester(AuthComponent(), visibility: .manual)
        tester.expectVisible([])
        tester.appear(\.signUp)
        tester.expectVisible(\.signUp)
        tester.disappear(\.signUp)
        tester.expectVisible(\.signUp, false)
        tester.unmount()
    }
}

/// A service each parallel test replaces with its own.
struct Greeter: Service {
    var name = "app"
}

extension Services {
    var greeter: Greeter {
        get { self[Greeter.self] }
        set { self[Greeter.self] = newValue }
    }
}

@Suite struct ServiceOverrideTests {
    struct Greeting: Component {
        let greet = SignalEmitter()
        let heard = LockedBox<[String]>([])
        var observers: Void {
            greet += { heard.mutate { $0.append(services.greeter.name) } }
        }
    }

    @Test(arguments: (0..<16).map { "test \($0)" })
    func eachTestSeesItsOwnServices(name: String) async {
        let tester = ComponentTester(Greeting(), services: { $0.greeter = Greeter(name: name) })
        for _ in 0..<50 {
            tester.send(tester.root.greet)
            await Task.yield()
        }
        #expect(tester.root.heard.value == Array(repeating: name, count: 50))
        #expect(Services.current.greeter.name == "app")  // outside the tester: the app's
        tester.unmount()
    }

    struct GreetingCard: Component {
        struct State: AnyState {
            var greetedBy: [String] = []
        }

        @Store var state: State
        let greet = SignalEmitter()
        var observers: Void {
            greet += { state.greetedBy.append(services.greeter.name) }
        }
    }

    /// The tree's handlers read the tester's services whoever sends: a `StoreTester`, another
    /// thread, the test itself.
    @Test func aTreesHandlersUseTheTestersServicesWhoeverSends() async {
        let tester = ComponentTester(GreetingCard(), services: { $0.greeter = Greeter(name: "tester") })
        let state = StoreTester(tester.root.$state)
        state.send(tester.root.greet) { $0.greetedBy = ["tester"] }
        tester.root.greet.send()
        let greet = tester.root.greet
        await Task.detached { greet.send() }.value
        let sent = DispatchSemaphore(value: 0)
        Thread {
            greet.send()
            sent.signal()
        }.start()
        #expect(sent.wait(timeout: .now() + 60) == .success)
        state.assert { $0.greetedBy = Array(repeating: "tester", count: 4) }
        tester.unmount()
    }

    /// A tree mounted in an override scope keeps its services after the scope has returned; a
    /// scope opened inside the tree's (a test replacing a service for one send) wins.
    @Test func aTreeKeepsTheServicesOfTheScopeItWasMountedIn() {
        let host = Services.withOverrides({ $0.greeter = Greeter(name: "mounted") }) {
            ComponentHost(GreetingCard())
        }
        host.root.greet.send()
        Services.withOverrides({ $0.greeter = Greeter(name: "unrelated") }) {
            host.root.greet.send()  // a scope not opened inside the tree's: the tree's services
        }
        let tester = ComponentTester(GreetingCard(), services: { $0.greeter = Greeter(name: "tester") })
        tester.run {
            Services.withOverrides({ $0.greeter = Greeter(name: "inner") }) { tester.root.greet.send() }
        }
        #expect(host.root.state.greetedBy == ["mounted", "mounted"])
        #expect(tester.root.state.greetedBy == ["inner"])
        host.unmount()
        tester.unmount()
    }

    /// Without overrides, a tree reads the app's services, as code outside a tree does.
    @Test func aTreeMountedOutsideAnyScopeReadsTheAppsServices() {
        let host = ComponentHost(GreetingCard())
        host.root.greet.send()
        Services.withOverrides({ $0.greeter = Greeter(name: "scoped") }) { host.root.greet.send() }
        #expect(host.root.state.greetedBy == ["app", "scoped"])
        host.unmount()
    }
}
