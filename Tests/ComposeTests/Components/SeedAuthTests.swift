import Compose
import ComposeTestSupport
import Testing

/// The "Components" and "RouterComponent" examples of Compose's README, headless: emitters
/// stand in for the buttons, and the host's visibility for what the screen shows.
@Suite struct SeedAuthTests {
    // LogIn.swift / SignUp.swift
    struct LogInComponent: Component {
        let openSignUp = SignalEmitter()
        var observers: Void { None }
    }

    struct SignUpComponent: Component {
        let openLogIn = SignalEmitter()
        var observers: Void { None }
    }

    // Auth.swift / Auth+Observers.swift, as the seed writes them: a trailing closure subscribes
    // exactly like `+=`.
    struct AuthComponent: RouterComponent {
        let logIn = LogInComponent()
        let signUp = SignUpComponent()
        let router = Router(start: \Self.logIn)

        var observers: Void {
            logIn.openSignUp {
                router.replace(\Self.signUp)
            }
            signUp.openLogIn += {
                router.replace(\Self.logIn)
            }
        }
    }

    @Test func theRouterShowsItsTopRoute() {
        let host = ComponentHost(AuthComponent())
        #expect(host.visibleIDs == ["AuthComponent", "AuthComponent/logIn"])
        #expect(host.root.router.path == \AuthComponent.logIn)

        host.root.logIn.openSignUp.send()
        #expect(host.visibleIDs == ["AuthComponent", "AuthComponent/signUp"])
        #expect(host.root.router.paths == [\AuthComponent.signUp])

        host.root.signUp.openLogIn.send()
        #expect(host.isVisible(\.logIn))
        #expect(!host.isVisible(\.signUp))
    }

    @Test func lifecycleOrder() {
        let events = Recorder<String>()
        struct Tracked: RouterComponent {
            let events: Recorder<String>
            let logIn = LogInComponent()
            let signUp = SignUpComponent()
            let router = Router(start: \Self.logIn)
            var observers: Void {
                didAppear += { events.record("auth appeared") }
                didDisappear += { events.record("auth disappeared") }
                logIn.didAppear += { events.record("logIn appeared") }
                logIn.didDisappear += { events.record("logIn disappeared") }
                signUp.didAppear += { events.record("signUp appeared") }
                signUp.didDisappear += { events.record("signUp disappeared") }
                logIn.openSignUp += { router.replace(\Self.signUp) }
            }
        }
        let host = ComponentHost(Tracked(events: events))
        host.root.logIn.openSignUp.send()
        host.unmount()
        #expect(
            events.values == [
                "auth appeared", "logIn appeared",  // parents first
                "logIn disappeared", "signUp appeared",  // the old top leaves, the new one comes
                "signUp disappeared", "auth disappeared",  // children first
            ])
    }

    @Test func unmountingCancelsEveryObserver() {
        let host = ComponentHost(AuthComponent())
        let root = host.root
        #expect(host.activeObserverCount == 2)
        #expect(root.logIn.openSignUp.subscriberCount == 1)
        host.unmount()
        #expect(host.activeObserverCount == 0)
        #expect(root.logIn.openSignUp.subscriberCount == 0)
        #expect(root.router.paths == [\AuthComponent.logIn])  // back at its root
        root.logIn.openSignUp.send()  // nobody listens
        #expect(root.router.paths == [\AuthComponent.logIn])
    }

    // The centralised-navigation variant: the emitters live on the router component.
    struct CentralAuthComponent: RouterComponent {
        struct LogIn: Component { var observers: Void { None } }
        struct SignUp: Component { var observers: Void { None } }

        let logIn = LogIn()
        let signUp = SignUp()
        let openSignUp = SignalEmitter()
        let openLogIn = SignalEmitter()
        let router = Router(start: \Self.logIn)

        var observers: Void {
            openSignUp += { router.replace(\Self.signUp) }
            openLogIn += { router.replace(\Self.logIn) }
        }
    }

    @Test func centralisedNavigation() {
        let host = ComponentHost(CentralAuthComponent())
        let pathIsSignUp = { host.root.router.path == \CentralAuthComponent.signUp }
        #expect(!pathIsSignUp())
        host.root.openSignUp.send()
        #expect(pathIsSignUp())
        #expect(host.isVisible(\.signUp) && !host.isVisible(\.logIn))
        host.root.openLogIn.send()
        #expect(host.isVisible(\.logIn) && !host.isVisible(\.signUp))
    }
}
