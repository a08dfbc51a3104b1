import Compose
import ComposeSwiftUI
import SwiftUI

// MARK: Onboarding (a RouterView with default content)

struct NextComponent: Component, View {
    var observers: Void { None }
    var body: some View { Text("Next") }
}

struct OnboardingComponent: RouterComponent, View {
    let next = NextComponent()
    let router = Router()
    let openNext = SignalEmitter()

    var observers: Void {
        openNext += {
            router.push(\Self.next)
        }
    }

    var body: some View {
        RouterView(router) {
            VStack {
                Button(emitter: openNext) {
                    Text("Open Next Page")
                }
            }
        }
    }
}

// MARK: Profile sheet (DynamicComponent)

struct ProfileObject: Equatable, Sendable {
    let fullName: String
}

struct EditProfileComponent: Component, View {
    let profile: ProfileObject
    let close = SignalEmitter()
    @EnclosingRouter var router

    var observers: Void {
        close += { router.pop() }
    }

    var body: some View {
        VStack {
            Text("Editing \(profile.fullName)")
            Button("Close", emitter: close)
        }
    }
}

struct ProfileComponent: RouterComponent, RoutableView {
    let editProfile = DynamicComponent<EditProfileComponent>()
    let settings = DynamicComponent<SettingsComponent>()
    let router = Router(start: \Self.self)
    let openEditProfile = ValueEmitter<ProfileObject>()
    let openSettings = SignalEmitter()

    var observers: Void {
        openEditProfile += { profileToEdit in
            editProfile.create(EditProfileComponent(profile: profileToEdit))
            router.push(\Self.editProfile)
        }
        openSettings += {
            settings.create(SettingsComponent())
        }
    }

    var routableBody: some View {
        VStack {
            Button("Edit", emitter: openEditProfile, value: ProfileObject(fullName: "Jill Valentine"))
            Button(emitter: openSettings) {
                Text("Settings")
            }
        }
        .sheet(settings)
    }
}

struct SettingsComponent: Component, View {
    var observers: Void { None }
    var body: some View { Text("Settings") }
}

// MARK: Nested players (InstanceComponent)

struct PlayerComponent: Component, View {
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

    var body: some View {
        VStack {
            Text(title)
            Button(emitter: openNext, value: "Next video") {
                Text("Play next")
            }
        }
    }
}

/// A router component whose view is its router's: `View` alone gives it the default body.
struct VideosComponent: RouterComponent, View {
    let player = PlayerComponent(title: "First video")
    let router = Router(start: \Self.player)
    var observers: Void { None }
}

// MARK: @AttachedEmitter

struct ChildView: View {
    @AttachedEmitter var openLink: SignalEmitter

    var body: some View {
        VStack {
            Button(emitter: openLink) {
                Text("Open link")
            }
        }
    }
}

struct SomeComponent: Component, View {
    let openLink = SignalEmitter()

    var observers: Void {
        openLink += {
            print("Link will be opened from here.")
        }
    }

    var body: some View {
        VStack {
            ChildView()
                .attach(openLink, at: \.$openLink)
        }
    }
}

// MARK: Refs in a text field

struct SpecimenModel: Referable {
    var id: String
    var name: String
}

struct SpecimenComponent: Component, View {
    @Store var state: State

    init(specimen: Referred<SpecimenModel>) {
        state.$specimen = specimen
    }

    struct State: AnyState {
        @Ref var specimen: SpecimenModel
    }

    var observers: Void { None }

    var body: some View {
        VStack {
            TextField("Name", text: $state.binding.specimen.name)
        }
    }
}

// MARK: The app

@main
struct AppComponent: RouterComponent, ComposeApplication {
    let auth = AuthComponent()
    let onboarding = OnboardingComponent()
    let profile = ProfileComponent()
    let videos = VideosComponent()
    let router = Router(start: \Self.auth)

    var observers: Void { None }
}

/// A root that is also a `StartupComponent`, for its hooks: it starts the same way (`main` is
/// only named here, since one `@main` is allowed per module).
struct IntegratedAppComponent: RouterComponent, ComposeApplication, StartupComponent {
    let auth = AuthComponent()
    let router = Router(start: \Self.auth)
    var observers: Void { None }

    func willBindRootComponent() {
        // Set up integrations here.
    }
}

extension IntegratedAppComponent: View {
    var body: some View { RouterView(router) }
}

let integratedAppEntry: @MainActor () -> Void = IntegratedAppComponent.main

extension AppComponent: View {
    var body: some View {
        RouterView(router)
    }
}
