import Compose

// The seed's Auth example as a main-actor app target writes it (this target is built with
// `.defaultIsolation(MainActor.self)`): components, a service, a store, validation, a router.
// Every declaration here is main-actor isolated, the conformances to `Component` and `Service`
// too (Swift 6.2 infers isolated conformances), and nothing says `nonisolated` or
// `assumeIsolated`: handlers call the app's main-actor code directly.

// MARK: Services

/// The seed's user service: a store and the methods that work on it.
struct UserService: Service {
    let store = Store<UserState>()

    func login(email: String) {
        store.state.loggedIn.append(email)
    }
}

struct UserState: AnyState {
    var loggedIn: [String] = []
}

extension Services {
    var user: UserService {
        get { self[UserService.self] }
        set { self[UserService.self] = newValue }
    }
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
            services.user.login(email: state.email)
            AppLog.shared.record("logged in \(state.email)")
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
            AppLog.shared.record("router: sign up")
        }
        signUp.openLogIn {
            router.replace(\Self.logIn)
        }
    }
}

// MARK: The app's main-actor code

/// A main-actor log that handlers write to, as app code writes to its own state.
final class AppLog {
    static let shared = AppLog()
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
        root.services.user.store.observe(\UserState.loggedIn) { users in self.log.record("users \(users)") }
    }
}

// MARK: A component that is also a view

/// A stand-in for SwiftUI's `View`: a main-actor protocol.
@MainActor protocol ViewLike {
    var body: String { get }
}

/// `struct X: Component, View` in one declaration, as the original Compose writes components.
struct BannerComponent: Component, ViewLike {
    let tap = SignalEmitter()
    var body: String { "Banner" }

    var observers: Void {
        tap += { AppLog.shared.record("banner \(body)") }
        didAppear += { AppLog.shared.record("banner appeared") }
    }
}
