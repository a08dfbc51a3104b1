import Compose
import ComposeTestSupport
import Foundation
import Synchronization
import Testing

/// The Composable Navigator seed's examples (home, settings, detail with an id, the login
/// condition with wildcards) against a headless component tree.
@Suite struct DeepLinkTests {
    // Screens
    struct HomeScreen: ParameterlessScreen { static let name = "home" }
    struct SettingsScreen: ParameterlessScreen { static let name = "settings" }
    struct LoginScreen: ParameterlessScreen { static let name = "login" }
    struct DetailScreen: Screen {
        static let name = "detail"
        let id: Int
        init(id: Int) { self.id = id }
        init(parameters: ScreenParameters) throws { id = try parameters.required("id") }
        var parameters: ScreenParameters { ["id": "\(id)"] }
    }

    // Components
    struct HomeComponent: Component { var observers: Void { None } }
    struct SettingsComponent: Component { var observers: Void { None } }
    struct LoginComponent: Component { var observers: Void { None } }
    struct DetailComponent: Component {
        let id: Int
        let close = SignalEmitter()
        var observers: Void { None }
    }

    struct AppComponent: RouterComponent {
        let home = HomeComponent()
        let settings = SettingsComponent()
        let detail = DynamicComponent<DetailComponent>()
        let login = LoginComponent()
        let router = Router(start: \Self.home)
        var observers: Void { None }
    }

    final class Session: Sendable {
        private let state = Atomic(true)
        var isLoggedIn: Bool { state.load(ordering: .relaxed) }
        func set(_ loggedIn: Bool) { state.store(loggedIn, ordering: .relaxed) }
    }

    static let homeNavigator: Navigator = .screen(
        HomeScreen.self, route: \AppComponent.home,
        nesting: .anyOf(
            .screen(SettingsScreen.self, route: \AppComponent.settings),
            .screen(
                DetailScreen.self, route: \AppComponent.detail,
                make: { DetailComponent(id: $0.id) }, read: { DetailScreen(id: $0.id) }
            )
        )
    )

    static func appNavigator(_ session: Session) -> Navigator {
        .conditional(
            either: .wildcard(screen: HomeScreen(), navigator: homeNavigator),
            or: .wildcard(screen: LoginScreen(), navigator: .screen(LoginScreen.self, route: \AppComponent.login)),
            basedOn: { session.isLoggedIn },
            label: "logged in"
        )
    }

    @Test func aDeepLinkSetsTheRoutersAndCreatesWhatItNeeds() throws {
        let session = Session()
        let navigator = Self.appNavigator(session)
        let host = ComponentHost(AppComponent())
        try host.open("myapp://home/detail?id=42", scheme: "myapp", with: navigator)
        #expect(host.root.router.paths == [\AppComponent.home, \AppComponent.detail])
        #expect(host.root.detail.component?.id == 42)
        #expect(host.visibleIDs == ["AppComponent", "AppComponent/detail"])
        #expect(try host.routingPath(with: navigator).description == "/home/detail?id=42")

        try host.open("/home/settings", with: navigator)
        #expect(host.visibleIDs == ["AppComponent", "AppComponent/settings"])
        #expect(!host.root.detail.isCreated)  // its route went: destroyed
        #expect(try host.routingPath(with: navigator).description == "/home/settings")
    }

    @Test func navigatingToTheCurrentPathChangesNothing() throws {
        let navigator = Self.homeNavigator
        let host = ComponentHost(AppComponent())
        try host.open("/home/detail?id=1", with: navigator)
        let detail = try #require(host.root.detail.component)
        let changes = Recorder<String>()
        host.root.router.didReplace += { changes.record("\($0)") }
        try host.open("/home/detail?id=1", with: navigator)
        #expect(changes.values.isEmpty)
        #expect(host.root.detail.component?.close === detail.close)  // not made again
        try host.open("/home/detail?id=2", with: navigator)
        #expect(host.root.detail.component?.id == 2)
    }

    @Test func theLoginConditionSendsEverythingToTheLoginScreen() throws {
        let session = Session()
        session.set(false)
        let navigator = Self.appNavigator(session)
        let host = ComponentHost(AppComponent())
        try host.open("/home/detail?id=7", with: navigator)
        #expect(host.root.router.paths == [\AppComponent.login])
        #expect(!host.root.detail.isCreated)

        session.set(true)
        try host.refreshPath(with: navigator)  // the wildcard lands on home
        #expect(host.root.router.paths == [\AppComponent.home])
        try host.open("/home/detail?id=7", with: navigator)
        #expect(host.root.detail.component?.id == 7)
    }

    @Test func aBadLinkSaysWhichSegmentFailedAndChangesNothing() throws {
        let host = ComponentHost(AppComponent())
        try host.open("/home/settings", with: Self.homeNavigator)
        let before = host.root.router.routes
        let error = #expect(throws: DeepLinkError.self) { try host.open("/home/detail?id=x", with: Self.homeNavigator) }
        #expect(error?.segment == 1)
        #expect(throws: DeepLinkError(segment: 1, .unknownScreen(name: "profile", expected: ["settings", "detail"]))) {
            try host.open("/home/profile", with: Self.homeNavigator)
        }
        #expect(host.root.router.routes == before)
        #expect(!host.root.detail.isCreated)
    }

    @Test func screensMustBeOnTheRouterThePathReaches() throws {
        struct Other: RouterComponent {
            let home = HomeComponent()
            let router = Router(start: \Self.home)
            var observers: Void { None }
        }
        let host = ComponentHost(Other())
        #expect(throws: DeepLinkError(segment: 0, .notOnRouter(screen: "home", router: "the router of Other"))) {
            try host.open("/home", with: Self.homeNavigator)
        }
    }

    @Test func aPathIsSavedAndRestoredWithPersistence() throws {
        struct Navigation: AnyState, Codable {
            var path = RoutingPath()
        }
        let storage = InMemoryPersistentStorage()
        do {
            let host = ComponentHost(AppComponent())
            try host.open("/home/detail?id=5", with: Self.homeNavigator)
            let saved = Store<Navigation>(storage: storage)
            saved.path = try host.routingPath(with: Self.homeNavigator)
            try saved.persistence.save()
        }
        let restored = Store<Navigation>(storage: storage)
        #expect(try restored.persistence.restore())
        let host = ComponentHost(AppComponent())
        try host.navigate(to: restored.path, with: Self.homeNavigator)
        #expect(host.visibleIDs == ["AppComponent", "AppComponent/detail"])
        #expect(host.root.detail.component?.id == 5)
    }

    // MARK: Nested routers and instances

    struct PageScreen: Screen {
        static let name = "page"
        let number: Int
        init(number: Int) { self.number = number }
        init(parameters: ScreenParameters) throws { number = try parameters.required("n") }
        var parameters: ScreenParameters { ["n": "\(number)"] }
    }

    struct TabsScreen: ParameterlessScreen { static let name = "tabs" }

    struct PageComponent: Component {
        let number: Int
        var observers: Void { None }
    }

    struct TabsComponent: RouterComponent {
        let pages = InstanceComponent<PageComponent>()
        let router = Router()
        var observers: Void { None }
    }

    struct Shell: RouterComponent {
        let home = HomeComponent()
        let tabs = TabsComponent()
        let router = Router(start: \Self.home)
        var observers: Void { None }
    }

    static let pages: Navigator = .screen(
        PageScreen.self, route: \TabsComponent.pages,
        make: { PageComponent(number: $0.number) }, read: { PageScreen(number: $0.number) },
        nesting: .screen(
            PageScreen.self, route: \TabsComponent.pages,
            make: { PageComponent(number: $0.number) }, read: { PageScreen(number: $0.number) }
        )
    )

    static let shellNavigator: Navigator = .anyOf(
        .screen(HomeScreen.self, route: \Shell.home),
        .screen(TabsScreen.self, route: \Shell.tabs, nesting: pages)
    )

    @Test func aPathContinuesOnTheRouterOfARouterComponent() throws {
        let host = ComponentHost(Shell())
        try host.open("/tabs/page?n=1/page?n=2", with: Self.shellNavigator)
        #expect(host.root.router.paths == [\Shell.tabs])
        #expect(host.root.tabs.router.depth == 2)
        #expect(host.root.tabs.pages.ids.count == 2)
        #expect(host.visibleNodes.last?.typeName == "PageComponent")
        #expect(try host.routingPath(with: Self.shellNavigator).description == "/tabs/page?n=1/page?n=2")

        try host.open("/tabs", with: Self.shellNavigator)  // the tabs router returns to its default content
        #expect(host.root.tabs.router.depth == 0)
        #expect(host.root.tabs.pages.ids.isEmpty)
        #expect(host.visibleIDs == ["Shell", "Shell/tabs"])
    }
}

/// Navigating along a path is all or nothing: when any router on the way would refuse its
/// routes, nothing is created and no router moves.
@Suite struct AtomicNavigationTests {
    struct TabScreen: ParameterlessScreen { static let name = "tab" }
    struct ListScreen: Screen {
        static let name = "list"
        let filter: String
        init(filter: String) { self.filter = filter }
        init(parameters: ScreenParameters) throws { filter = try parameters.required("filter") }
        var parameters: ScreenParameters { ["filter": filter] }
    }
    struct DetailScreen: ParameterlessScreen { static let name = "detail" }
    struct OtherScreen: ParameterlessScreen { static let name = "other" }

    struct Page: Component {
        let tap = SignalEmitter()
        var observers: Void { None }
    }
    struct ListComponent: Component {
        let filter: String
        var observers: Void { None }
    }

    /// A router component on the root's router, whose own router gets the rest of the path.
    struct TabComponent: RouterComponent {
        let start = Page()
        let list = DynamicComponent<ListComponent>()
        /// Never created: a route to it without `make:` is refused by the router.
        let detail = DynamicComponent<Page>()
        let router = Router(start: \Self.start)
        var observers: Void { None }
    }

    struct AppComponent: RouterComponent {
        let home = Page()
        let other = Page()
        let tab = TabComponent()
        let router = Router(start: \Self.home)
        var observers: Void { None }
    }

    static let navigator: Navigator = .anyOf(
        .screen(OtherScreen.self, route: \AppComponent.other),
        .screen(
            TabScreen.self, route: \AppComponent.tab,
            nesting: .screen(
                ListScreen.self, route: \TabComponent.list, make: { ListComponent(filter: $0.filter) },
                nesting: .screen(DetailScreen.self, route: \TabComponent.detail)
            )
        )
    )

    /// `/tab/list?filter=x/detail`: the root's router would take `tab`, and the tab's router
    /// would create `list`, but refuses `detail` (never created). Before the fix, `list` was
    /// created and the root's router had already moved when the last router refused.
    @Test func whenOnlyTheLastSegmentIsRefusedNothingChanges() throws {
        let host = ComponentHost(AppComponent())
        try host.open("/other", with: Self.navigator)
        let created = Recorder<String>()
        host.root.tab.list.didCreate += { created.record("list") }
        let rootBefore = host.root.router.paths
        let tabBefore = host.root.tab.router.paths
        let visibleBefore = host.visibleIDs

        #expect {
            try host.open("/tab/list?filter=x/detail", with: Self.navigator)
        } throws: { error in
            guard let error = error as? DeepLinkError else { return false }
            return error.segment == 2 && "\(error)".contains("detail")
        }
        #expect(created.values.isEmpty)
        #expect(!host.root.tab.list.isCreated)
        #expect(host.root.router.paths == rootBefore)
        #expect(host.root.tab.router.paths == tabBefore)
        #expect(host.visibleIDs == visibleBefore)

        // The same path without the bad segment goes through.
        try host.open("/tab/list?filter=x", with: Self.navigator)
        #expect(created.values == ["list"])
        #expect(host.root.tab.list.component?.filter == "x")
        host.unmount()
    }
}

/// A destination can refuse its screen: its `make:` throws, or its `find:` finds nothing. The
/// refusal is a `DeepLinkError` naming the segment, and nothing changes.
@Suite struct RefusedDestinationTests {
    struct PlayerScreen: Screen {
        static let name = "player"
        let video: String
        init(video: String) { self.video = video }
        init(parameters: ScreenParameters) throws { video = try parameters.required("video") }
        var parameters: ScreenParameters { ["video": video] }
    }

    struct Player: Component {
        let video: String
        var observers: Void { None }
    }

    struct Unavailable: Error, CustomStringConvertible {
        var description: String { "this video is not available" }
    }

    struct AppComponent: RouterComponent {
        let home = DeepLinkTests.HomeComponent()
        let players = InstanceComponent<Player>()
        let router = Router(start: \Self.home)
        var observers: Void { None }
    }

    static let navigator: Navigator = .screen(
        DeepLinkTests.HomeScreen.self, route: \AppComponent.home,
        nesting: .screen(
            PlayerScreen.self, route: \AppComponent.players,
            make: { screen in
                guard screen.video != "private" else { throw Unavailable() }
                return Player(video: screen.video)
            },
            read: { PlayerScreen(video: $0.video) }
        )
    )

    @Test func aThrowingMakeRefusesTheScreenAndChangesNothing() throws {
        let host = ComponentHost(AppComponent())
        #expect(throws: DeepLinkError(segment: 1, .refused(screen: "player", reason: "this video is not available"))) {
            try host.open("/home/player?video=private", with: Self.navigator)
        }
        #expect(host.root.players.ids.isEmpty)
        #expect(host.root.router.paths == [\AppComponent.home])
        try host.open("/home/player?video=intro", with: Self.navigator)
        #expect(host.root.players.ids.count == 1)
        #expect(try host.routingPath(with: Self.navigator).description == "/home/player?video=intro")
        host.unmount()
    }
}
