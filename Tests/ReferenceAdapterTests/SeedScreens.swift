import Compose

// The seed's navigation examples, as an app declares them.

// MARK: Auth (RouterComponent) and reset password (@EnclosingRouter)

struct ResetPasswordComponent: Component {
    let goBack = SignalEmitter()
    var observers: Void { None }
}

struct LogInComponent: Component {
    let resetPassword = ResetPasswordComponent()
    @EnclosingRouter var router
    let openSignUp = SignalEmitter()
    let openResetPassword = SignalEmitter()

    var observers: Void {
        openResetPassword += { router.push(\Self.resetPassword) }
        resetPassword.goBack += { router.pop() }
    }
}

struct SignUpComponent: Component {
    let openLogIn = SignalEmitter()
    var observers: Void { None }
}

struct AuthComponent: RouterComponent {
    let logIn = LogInComponent()
    let signUp = SignUpComponent()
    let router = Router(start: \Self.logIn)

    var observers: Void {
        logIn.openSignUp { router.replace(\Self.signUp) }
        signUp.openLogIn { router.replace(\Self.logIn) }
    }
}

// MARK: Onboarding (a router with default content)

struct NextComponent: Component {
    var observers: Void { None }
}

struct OnboardingComponent: RouterComponent {
    let next = NextComponent()
    let router = Router()
    let openNext = SignalEmitter()

    var observers: Void {
        openNext += { router.push(\Self.next) }
    }
}

// MARK: Profile (DynamicComponent, pushed and as a sheet)

struct ProfileObject: Equatable, Sendable {
    let fullName: String
}

struct EditProfileComponent: Component {
    let profile: ProfileObject
    let close = SignalEmitter()
    @EnclosingRouter var router

    var observers: Void {
        close += { router.pop() }
    }
}

struct ProfileComponent: RouterComponent {
    let editProfile = DynamicComponent<EditProfileComponent>()
    let router = Router(start: \Self.self)
    let openEditProfile = ValueEmitter<ProfileObject>()

    var observers: Void {
        openEditProfile += { profileToEdit in
            editProfile.create(EditProfileComponent(profile: profileToEdit))
            router.push(\Self.editProfile)
        }
    }
}

struct SettingsSheet: Component {
    let done = SignalEmitter()
    var observers: Void { None }
}

/// A profile screen that shows its settings in a sheet: no router, so a created dynamic
/// component is shown by its parent.
struct AccountComponent: Component {
    let settings = DynamicComponent<SettingsSheet>()
    let openSettings = SignalEmitter()

    var observers: Void {
        openSettings += { settings.create(SettingsSheet()) }
    }
}

// MARK: Nested players (InstanceComponent)

struct PlayerComponent: Component {
    let title: String
    let next = InstanceComponent<PlayerComponent>()
    @EnclosingRouter var router
    let openNext = ValueEmitter<String>()

    var observers: Void {
        openNext += { title in
            let id = next.create(PlayerComponent(title: title))
            router.push(\Self.next, instance: id)
        }
    }
}

struct VideosComponent: RouterComponent {
    let player = PlayerComponent(title: "first")
    let router = Router(start: \Self.player)
    var observers: Void { None }
}
