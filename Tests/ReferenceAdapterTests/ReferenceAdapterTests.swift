import Compose
import Foundation
import Observation
import Synchronization
import Testing

/// The seed's navigation examples driven through `TextScreen`, a view layer written on the public
/// API alone: what is on screen, the lifecycle order, back gestures, sheets, and that what leaves
/// the screen goes.
@Suite struct ReferenceAdapterTests {
    @Test func authShowsTheTopRouteAndSwapsItWhenTheRouteIsReplaced() {
        let screen = TextScreen(AuthComponent())
        #expect(screen.render() == "AuthComponent\n  LogInComponent (root of Router<AuthComponent>)")
        let events = Lifecycle(screen.host)

        screen.host.root.logIn.openSignUp.send()
        #expect(screen.needsLayout)  // Observation told the screen
        screen.layOut()
        #expect(screen.render() == "AuthComponent\n  SignUpComponent (root of Router<AuthComponent>)")
        #expect(events.values == ["LogInComponent disappeared", "SignUpComponent appeared"])
        #expect(screen.host.visibleIDs == ["AuthComponent", "AuthComponent/signUp"])
        screen.host.unmount()
    }

    @Test func resetPasswordIsPushedThroughTheEnclosingRouterAndABackGesturePopsIt() throws {
        let screen = TextScreen(AuthComponent())
        let router = screen.host.root.router
        screen.host.root.logIn.openResetPassword.send()
        screen.layOutIfNeeded()
        #expect(
            screen.render()
                == "AuthComponent\n    ResetPasswordComponent (pushed, 1 on Router<AuthComponent>)")

        // What a NavigationStack destination renders: the route's node and component.
        let route = try #require(router.navigationPath.last)
        let node = try #require(screen.host.node(for: route, on: router))
        #expect(node.id == "AuthComponent/logIn/resetPassword")
        #expect(screen.host.component(for: route, on: router) is ResetPasswordComponent)

        screen.back(on: router)
        #expect(router.navigationPath.isEmpty)
        #expect(screen.layOutIfNeeded())
        #expect(screen.render() == "AuthComponent\n  LogInComponent (root of Router<AuthComponent>)")
        screen.host.unmount()
    }

    @Test func onboardingShowsItsOwnerUntilSomethingIsPushed() {
        let screen = TextScreen(OnboardingComponent())
        #expect(screen.render() == "OnboardingComponent")
        screen.host.root.openNext.send()
        screen.layOutIfNeeded()
        #expect(screen.render() == "OnboardingComponent\n  NextComponent (pushed, 1 on Router)")
        screen.back(on: screen.host.root.router)
        screen.layOutIfNeeded()
        #expect(screen.render() == "OnboardingComponent")
        screen.host.unmount()
    }

    @Test func theProfileEditorIsPushedAndDestroyedWhenTheBackGesturePopsIt() throws {
        let screen = TextScreen(ProfileComponent())
        let profile = screen.host.root
        weak var editor: SignalEmitter?
        do {
            profile.openEditProfile.send(ProfileObject(fullName: "Jill Valentine"))
            screen.layOutIfNeeded()
            #expect(profile.editProfile.isCreated)
            let edit = try #require(profile.editProfile.component)
            editor = edit.close
            #expect(screen.host.node(of: edit)?.id == "ProfileComponent/editProfile")
            #expect(screen.host.node(of: edit)?.origin == .dynamic)
            #expect(screen.render().contains("EditProfileComponent (pushed, 1 on Router<ProfileComponent>)"))
        }
        screen.back(on: profile.router)
        screen.layOutIfNeeded()
        #expect(!profile.editProfile.isCreated)  // popping destroyed it
        #expect(screen.render() == "ProfileComponent")
        #expect(editor == nil)  // nothing kept it
        screen.host.unmount()
    }

    @Test func aSheetIsPresentedWhenCreatedAndDestroyedWhenDismissed() {
        let screen = TextScreen(AccountComponent())
        let account = screen.host.root
        let events = Lifecycle(screen.host)
        account.openSettings.send()
        #expect(screen.needsLayout)
        events.watch(screen.host)  // the sheet's node exists now; it appears when laid out
        screen.layOut()
        #expect(account.settings.isPresented)
        #expect(screen.render() == "AccountComponent\n  SettingsSheet (sheet)")
        #expect(events.values == ["SettingsSheet appeared"])

        account.settings.isPresented = false  // the sheet's binding, swiped down
        #expect(!account.settings.isCreated)
        screen.layOutIfNeeded()
        #expect(screen.render() == "AccountComponent")
        #expect(events.values == ["SettingsSheet appeared", "SettingsSheet disappeared"])
        screen.host.unmount()
    }

    @Test func nestedPlayersArePushedAsInstancesAndPoppedByBackGestures() throws {
        let screen = TextScreen(VideosComponent())
        let router = screen.host.root.router
        screen.host.root.player.openNext.send("second")
        screen.layOutIfNeeded()
        let secondID = try #require(screen.host.root.player.next.ids.first)
        let second = try #require(screen.host.root.player.next.instance(for: secondID))
        second.openNext.send("third")
        screen.layOutIfNeeded()
        #expect(router.navigationPath.count == 2)
        #expect(screen.onScreen.last?.origin == .instance(try #require(second.next.ids.first)))
        #expect(screen.render().hasSuffix("PlayerComponent (pushed, 2 on Router<VideosComponent>)"))

        // Two routes at once, as a long press on the back button does.
        router.navigationPath = []
        screen.layOutIfNeeded()
        #expect(screen.host.root.player.next.ids.isEmpty)
        #expect(screen.render() == "VideosComponent\n  PlayerComponent (root of Router<VideosComponent>)")
        screen.host.unmount()
    }

    @Test func aNavigationPathThatIsNotAShorterOneIsRefused() throws {
        let screen = TextScreen(OnboardingComponent())
        let router = screen.host.root.router
        screen.host.root.openNext.send()
        let path = router.navigationPath
        let errors = Log<RoutingError.Kind>()
        router.errors += { error in errors.append(error.kind) }
        Diagnostics.withHandler({ _ in }) {
            #expect(throws: RoutingError.self) { try router.setNavigationPath(path + path) }
            router.navigationPath = []  // and a shorter one is fine
            router.navigationPath = path  // but not back: forward goes through push
        }
        #expect(router.navigationPath.isEmpty)
        #expect(errors.values == [.notRoutable, .notRoutable])
        screen.host.unmount()
    }

    @Test func whatAViewReadsIsObservable() {
        let screen = TextScreen(AccountComponent())
        let account = screen.host.root
        let node = screen.host.rootNode!
        #expect(
            tracks {
                _ = account.settings.isCreated
            } when: {
                account.openSettings.send()
            })
        #expect(
            tracks {
                _ = node.isVisible
            } when: {
                screen.host.setVisible(node, false)
            })
        let videos = ComponentHost(VideosComponent())
        #expect(
            tracks {
                _ = videos.root.player.next.ids
            } when: {
                videos.root.player.openNext.send("x")
            })
        let messages = ValueEmitter<String>()
        #expect(
            tracks {
                _ = messages.lastValue
            } when: {
                messages.send("hi")
            })
        #expect(
            !tracks {
                _ = messages.lastValue
            } when: {
            })
        videos.unmount()
        screen.host.unmount()
    }

    @Test func unmountingTakesEverythingOffTheScreenChildrenFirst() {
        let screen = TextScreen(AuthComponent())
        let events = Lifecycle(screen.host)
        screen.host.root.logIn.openResetPassword.send()
        screen.layOutIfNeeded()
        events.clear()
        screen.host.unmount()
        #expect(events.values == ["ResetPasswordComponent disappeared", "AuthComponent disappeared"])
        #expect(screen.host.activeObserverCount == 0)
    }
}

/// Whether Observation reports a change of what `read` reads when `change` runs.
func tracks(_ read: () -> Void, when change: () -> Void) -> Bool {
    // A class, not a local `Atomic`: the tracker outlives this call when nothing changes.
    let fired = Log<Bool>()
    withObservationTracking(read, onChange: { fired.append(true) })
    change()
    return !fired.values.isEmpty
}

/// The appear and disappear events of every node of a host, in order.
final class Lifecycle: Sendable {
    private let events = Log<String>()

    private let watched = Mutex<Set<ObjectIdentifier>>([])

    init<Root>(_ host: ComponentHost<Root>) {
        watch(host)
    }

    /// Records the events of the nodes of `host` not watched yet.
    func watch<Root>(_ host: ComponentHost<Root>) {
        let events = self.events
        for node in host.nodes where watched.withLock({ $0.insert(ObjectIdentifier(node)).inserted }) {
            let name = node.typeName
            node.didAppear += { events.append("\(name) appeared") }
            node.didDisappear += { events.append("\(name) disappeared") }
        }
    }

    var values: [String] { events.values }

    func clear() { events.clear() }
}

/// Values appended from any thread.
final class Log<Value: Sendable>: Sendable {
    private let storage = Mutex<[Value]>([])

    func append(_ value: Value) { storage.withLock { $0.append(value) } }

    var values: [Value] { storage.withLock { $0 } }

    func clear() { storage.withLock { $0 = [] } }
}
