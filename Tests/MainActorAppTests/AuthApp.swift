import Compose

// The seed's Auth example compiled in a main-actor app target (this target is built with
// `.defaultIsolation(MainActor.self)`): the components, their service, store, validation and
// router. Swift 6.2 infers a type that conforms to a `Sendable` protocol (`Component`,
// `Service`) nonisolated even in such a target, so these components' `observers` are
// nonisolated and cannot call the app's main-actor code (issue 17 records what that needs). The
// main-actor code of the app is `AuthScreen` and `AppLog` below: everything it subscribes runs
// on the main actor.

// MARK: Services

/// The seed's user service: a store and the methods that work on it.
struct UserService: Service {
    static let shared = UserService()
    let store = Store<UserState>()

    func login(email: String) {
        store.state.loggedIn.append(email)
    }
}

struct UserState: AnyState {
    var loggedIn: [String] = []
}

// MARK: LogIn.swift

struct LogInComponent: Component {
    @Store var state: State
    let logIn = SignalEmitter()
    let openSignUp = SignalEmitter()

    struct State: AnyState {
        var email = ""
        var password = ""

        @ValidationBuilder
        var credentials: Validation {
            Field(email, rules: .nonEmpty, .email)
            Field(password, rules: .length(6...1000))
        }
    }

    var observers: Void {
        logIn += {
            guard state.credentials.isValid else { return }
            UserService.shared.login(email: state.email)
        }
    }
}

// MARK: SignUp.swift

struct SignUpComponent: Component {
    let openLogIn = SignalEmitter()
    var observers: Void { None }
}

// MARK: Auth.swift and Auth+Observers.swift

struct AuthComponent: RouterComponent {
    let logIn = LogInComponent()
    let signUp = SignUpComponent()
    let router = Router(start: \Self.logIn)

    var observers: Void {
        logIn.openSignUp {
            router.replace(\Self.signUp)
        }
        signUp.openLogIn {
            router.replace(\Self.logIn)
        }
    }
}

// MARK: The app's main-actor code

/// A main-actor log that handlers write to, as app code writes to its own state.
final class AppLog {
    private(set) var lines: [String] = []

    func record(_ line: String) {
        MainActor.preconditionIsolated("AppLog is main-actor state")
        lines.append(line)
    }
}

/// A screen's main-actor model over the Auth component: every closure here is main-actor
/// isolated because this code is, and calls main-actor code without `await` or annotations.
final class AuthScreen {
    let host = ComponentHost(AuthComponent())
    let log = AppLog()
    var emailLabel = ""
    var route = "logIn"

    init() {
        let root = host.root
        root.logIn.logIn += { self.log.record("log in tapped") }
        root.logIn.$state.observe(\LogInComponent.State.email) { email in self.emailLabel = email }
        root.router.didReplace += { change in self.route = "\(change)" }
        root.logIn.openSignUp { self.log.record("to sign up") }
        root.signUp.openLogIn !+= { self.log.record("back to log in, once") }
        UserService.shared.store.observe(\UserState.loggedIn) { users in self.log.record("users \(users)") }
    }
}
