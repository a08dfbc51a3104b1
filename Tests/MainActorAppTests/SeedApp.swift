import Compose
import Foundation

// The rest of the seed's examples, as a main-actor app target writes them: the profile sheet
// (`DynamicComponent`, `@EnclosingRouter`), nested players (`InstanceComponent`), persisted
// log-in fields, and specimens shared through `@Ref`. Handlers record to `AppLog.shared`, the
// app's main-actor state.

// MARK: Profile (DynamicComponent)

struct ProfileObject: Equatable, Sendable {
    let fullName: String
}

struct EditProfileComponent: Component {
    let profile: ProfileObject
    let close = SignalEmitter()
    @EnclosingRouter var router

    var observers: Void {
        close += {
            router.pop()
            AppLog.shared.record("closed \(profile.fullName)")
        }
    }
}

struct ProfileComponent: RouterComponent {
    let editProfile = DynamicComponent<EditProfileComponent>()
    let router = Router(start: \Self.self)
    let openEditProfile = ValueEmitter<ProfileObject>()

    var observers: Void {
        openEditProfile += { profileToEdit in
            // Create an instance of an underlying component
            editProfile.create(EditProfileComponent(profile: profileToEdit))
            // Present the instance using routing
            router.push(\Self.editProfile)
        }
        editProfile.didCreate += { AppLog.shared.record("created \(editProfile.component?.profile.fullName ?? "?")") }
        editProfile.didDestroy += { AppLog.shared.record("destroyed") }
    }
}

// MARK: Nested players (InstanceComponent)

struct PlayerComponent: Component {
    let title: String
    let next = InstanceComponent<PlayerComponent>()
    @EnclosingRouter var router
    let openNext = ValueEmitter<String>()
    let close = SignalEmitter()

    var observers: Void {
        openNext += { title in
            let id = next.create(PlayerComponent(title: title))
            router.push(\Self.next, instance: id)
            AppLog.shared.record("playing \(title)")
        }
        close += { router.pop() }
    }
}

struct VideosComponent: RouterComponent {
    let player = PlayerComponent(title: "first")
    let router = Router(start: \Self.player)
    var observers: Void { None }
}

// MARK: Persistence

struct RememberedLogInComponent: Component {
    @Store var state: State
    let login = SignalEmitter()

    init(directory: URL) {
        _state = Store(storage: FilePersistentStorage(key: "login-fields", directory: directory))
        _ = try? $state.persistence.restore()
    }

    struct State: Codable, AnyState {
        enum CodingKeys: CodingKey {
            case email
        }

        var email: String = ""
        var password: String = ""
    }

    var observers: Void {
        login += {
            do {
                try $state.persistence.save()
                AppLog.shared.record("saved \(state.email)")
            } catch {
                AppLog.shared.record("not saved: \(error)")
            }
        }
    }
}

// MARK: Refs

/// A model type that refs share conforms to `Referable`: Swift then infers it nonisolated, as
/// stores, which any thread may read, need.
struct SpecimenModel: Referable {
    var id: String
    var name: String

    init(id: String, _ name: String) {
        self.id = id
        self.name = name
    }
}

struct SpecimenComponent: Component {
    @Store var state: State

    init(specimen: Referred<SpecimenModel>) {
        state.$specimen = specimen
    }

    struct State: AnyState {
        @Ref var specimen: SpecimenModel
    }

    var observers: Void {
        $state.observe(\.specimen.name) { name in AppLog.shared.record("specimen \(name)") }
    }
}

struct ExhibitionComponent: Component {
    let specimenA: SpecimenComponent
    let specimenB: SpecimenComponent
    @Store var state: State

    init() {
        specimenA = SpecimenComponent(specimen: _state.wrappedValue.$specimen)
        specimenB = SpecimenComponent(specimen: _state.wrappedValue.$specimen)
    }

    struct State: AnyState {
        @Ref var specimen = SpecimenModel(id: "MY-MODEL-ID", "Funny Circle")
    }

    var observers: Void { None }
}
