import Compose
import ComposeSwiftUI
import SwiftUI

// The seed's SwiftUI examples as an app writes them (this target is built with main-actor
// default isolation, as app targets are). `Scripts/check-swiftui` type-checks them against the
// SwiftUI stand-in; they do not run here.

// MARK: Log in with a form and a button

struct UserService: Service {
    let store = Store<UserState>()
    func login(email: String, password: String) { store.state.lastLogIn = email }
}

struct UserState: AnyState {
    var lastLogIn = ""
}

extension Services {
    var user: UserService {
        get { self[UserService.self] }
        set { self[UserService.self] = newValue }
    }
}

struct LogInComponent: Component, View {
    @Store var state: State
    let login = SignalEmitter()
    let openResetPassword = SignalEmitter()
    let resetPassword = ResetPasswordComponent()
    @EnclosingRouter var router

    struct State: AnyState {
        var email = ""
        var password = ""
        var remember = false

        @ValidationBuilder
        var credentials: Validation {
            Field(email, rules: .nonEmpty, .email)
            Field(password, rules: .length(6...1000))
        }
    }

    var observers: Void {
        login += {
            guard state.credentials.isValid else { return }
            services.user.login(email: state.email, password: state.password)
        }
        openResetPassword += {
            router.push(\Self.resetPassword)
        }
        resetPassword.goBack += {
            router.pop()
        }
    }

    var body: some View {
        VStack {
            Text("Welcome To Log In")
            TextField("Email", text: $state.binding.email)
            SecureField("Password", text: $state.binding.password)
            Toggle("Remember me", isOn: $state.binding.remember)
            Button(emitter: login) {
                Text("Log In")
            }
            Button(emitter: openResetPassword) {
                Text("Reset Password")
            }
        }
    }
}

// MARK: Reset password (@EnclosingRouter)

struct ResetPasswordComponent: Component, View {
    let goBack = SignalEmitter()
    var observers: Void { None }

    var body: some View {
        Button("Back", emitter: goBack)
    }
}

// MARK: Auth routing, centralised navigation

struct SignUpComponent: Component, View {
    var observers: Void { None }
    var body: some View { Text("Sign Up") }
}

struct AuthComponent: RouterComponent, View {
    let logIn = LogInComponent()
    let signUp = SignUpComponent()
    let openSignUp = SignalEmitter()
    let openLogIn = SignalEmitter()
    let router = Router(start: \Self.logIn)

    var observers: Void {
        openSignUp {
            router.replace(\Self.signUp)
        }
        openLogIn {
            router.replace(\Self.logIn)
        }
    }

    var body: some View {
        VStack {
            RouterView(router)

            HStack {
                Button(emitter: openLogIn) {
                    Text("Log In")
                }
                Button(emitter: openSignUp) {
                    Text("Sign Up")
                }
            }
        }
    }
}
