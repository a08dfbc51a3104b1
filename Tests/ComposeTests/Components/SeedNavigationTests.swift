import Compose
import ComposeTestSupport
import Foundation
import Testing

/// The README's `@EnclosingRouter` (reset password), `RouterView` default content
/// (onboarding), `DynamicComponent` (profile) and `InstanceComponent` (nested players)
/// examples, headless.
@Suite struct SeedNavigationTests {
    // MARK: Reset password (@EnclosingRouter)

    struct ResetPasswordComponent: Component {
        let goBack = SignalEmitter()
        var observers: Void { None }
    }

    struct LogInComponent: Component {
        let resetPassword = ResetPasswordComponent()
        @EnclosingRouter var router
        let openResetPassword = SignalEmitter()

        var observers: Void {
            openResetPassword += {
                router.push(\Self.resetPassword)
            }
            resetPassword.goBack += {
                router.pop()
            }
        }
    }

    struct AuthComponent: RouterComponent {
        let logIn = LogInComponent()
        let router = Router(start: \Self.logIn)
        var observers: Void { None }
    }

    @Test func aNestedComponentPushesThroughItsEnclosingRouter() {
        let host = ComponentHost(AuthComponent())
        host.root.logIn.openResetPassword.send()
        #expect(host.root.router.paths == [\AuthComponent.logIn, \LogInComponent.resetPassword])
        #expect(host.visibleIDs == ["AuthComponent", "AuthComponent/logIn/resetPassword"])

        host.root.logIn.resetPassword.goBack.send()
        #expect(host.visibleIDs == ["AuthComponent", "AuthComponent/logIn"])
        #expect(host.root.router.depth == 1)
    }

    @Test func anEnclosingRouterWithoutARouterAboveRefuses() {
        let host = ComponentHost(LogInComponent())  // mounted alone: no router above
        let found = diagnostics { host.root.openResetPassword.send() }
        #expect(found.count == 1)
        #expect(found.first?.contains("noEnclosingRouter") == true)
        #expect(!host.root.router.isBound)
    }

    // MARK: Onboarding (default router content)

    struct NextComponent: Component {
        var observers: Void { None }
    }

    struct OnboardingComponent: RouterComponent {
        let next = NextComponent()
        let router = Router()
        let openNext = SignalEmitter()

        var observers: Void {
            openNext += {
                router.push(\Self.next)
            }
        }
    }

    @Test func aRouterWithDefaultContentShowsItsOwnerFirst() {
        let host = ComponentHost(OnboardingComponent())
        #expect(host.visibleIDs == ["OnboardingComponent"])
        #expect(host.root.router.path == nil)

        host.root.openNext.send()
        #expect(host.visibleIDs == ["OnboardingComponent", "OnboardingComponent/next"])

        #expect(host.root.router.pop())
        #expect(host.visibleIDs == ["OnboardingComponent"])
        let (popped, found) = recordingDiagnostics { host.root.router.pop() }
        #expect(!popped)
        #expect(found.count == 1)
    }

    // MARK: Profile (DynamicComponent)

    struct ProfileObject: Sendable, Equatable {
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
        let lifecycle = Recorder<String>()

        var observers: Void {
            openEditProfile += { profileToEdit in
                // Create an instance of an underlying component
                editProfile.create(EditProfileComponent(profile: profileToEdit))
                // Present the instance using routing
                router.push(\Self.editProfile)
            }
            editProfile.didCreate += { lifecycle.record("created \(editProfile.component?.profile.fullName ?? "?")") }
            editProfile.didDestroy += { lifecycle.record("destroyed") }
        }
    }

    @Test func aDynamicComponentLivesWhileItIsRouted() throws {
        let host = ComponentHost(ProfileComponent())
        #expect(host.visibleIDs == ["ProfileComponent"])

        host.root.openEditProfile.send(ProfileObject(fullName: "Jill Valentine"))
        #expect(host.visibleIDs == ["ProfileComponent", "ProfileComponent/editProfile"])
        let edit = try #require(host.root.editProfile.component)
        #expect(edit.profile.fullName == "Jill Valentine")
        #expect(edit.close.subscriberCount == 1)

        edit.close.send()  // pops itself: destroyed, observers cancelled
        #expect(host.visibleIDs == ["ProfileComponent"])
        #expect(!host.root.editProfile.isCreated)
        #expect(edit.close.subscriberCount == 0)
        #expect(host.root.lifecycle.values == ["created Jill Valentine", "destroyed"])
    }

    @Test func routingToADynamicComponentNeverCreatedIsRefused() {
        let host = ComponentHost(ProfileComponent())
        let errors = Recorder<RoutingError.Kind>()
        host.root.router.errors += { errors.record($0.kind) }
        let (pushed, found) = recordingDiagnostics { host.root.router.push(\ProfileComponent.editProfile) }
        #expect(!pushed)
        #expect(found.first?.contains("never created") == true)
        #expect(errors.values == [.notCreated])
        #expect(host.root.router.depth == 1)
        #expect(host.visibleIDs == ["ProfileComponent"])
    }

    @Test func aRoutedDynamicComponentCannotBeDestroyedDirectly() {
        let host = ComponentHost(ProfileComponent())
        host.root.openEditProfile.send(ProfileObject(fullName: "Chris"))
        let (destroyed, found) = recordingDiagnostics { host.root.editProfile.destroy() }
        #expect(!destroyed)
        #expect(found.count == 1)
        #expect(host.root.editProfile.isCreated)
    }

    @Test func aDynamicComponentShownWithoutARouterIsDismissedWithDestroy() {
        struct Sheet: Component { var observers: Void { None } }
        struct Screen: Component {
            let sheet = DynamicComponent<Sheet>()
            var observers: Void { None }
        }
        let host = ComponentHost(Screen())
        host.root.sheet.create(Sheet())
        #expect(host.visibleIDs == ["Screen", "Screen/sheet"])  // a non-router parent shows it
        #expect(host.root.sheet.destroy())
        #expect(host.visibleIDs == ["Screen"])
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
            }
            close += { router.pop() }
        }
    }

    struct VideosComponent: RouterComponent {
        let player = PlayerComponent(title: "first")
        let router = Router(start: \Self.player)
        var observers: Void { None }
    }

    @Test func playersOpenPlayersAndEachGoesWithItsRoute() throws {
        let host = ComponentHost(VideosComponent())
        let created = Recorder<UUID>()
        let destroyed = Recorder<UUID>()
        host.root.player.next.didCreate += { created.record($0) }
        host.root.player.next.didDestroy += { destroyed.record($0) }

        host.root.player.openNext.send("second")
        let secondID = try #require(host.root.player.next.ids.first)
        let second = try #require(host.root.player.next.instance(for: secondID))
        second.openNext.send("third")
        let third = try #require(second.next.ids.first.flatMap(second.next.instance(for:)))
        #expect(host.root.router.depth == 3)
        #expect(host.visibleNodes.map(\.typeName) == ["VideosComponent", "PlayerComponent"])
        #expect(host.node(\.player, instance: nil)?.isVisible == false)
        #expect(third.title == "third")
        #expect(host.visibleIDs.last?.hasSuffix("]/next[" + String(second.next.ids[0].uuidString.prefix(8)) + "]") == true)

        third.close.send()
        second.close.send()
        #expect(host.root.router.depth == 1)
        #expect(host.isVisible(\.player))
        #expect(host.root.player.next.ids.isEmpty)
        #expect(created.values == [secondID])
        #expect(destroyed.values == [secondID])
        #expect(third.openNext.subscriberCount == 0 && second.openNext.subscriberCount == 0)
    }
}
