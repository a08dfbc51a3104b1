import ComposeRouting
import ComposeTestSupport
import Synchronization
import Testing

/// A condition the tests flip.
final class Session: Sendable {
    private let state = Atomic(false)
    var isLoggedIn: Bool { state.load(ordering: .relaxed) }
    func logIn() { state.store(true, ordering: .relaxed) }
    func logOut() { state.store(false, ordering: .relaxed) }
}

/// Composition, after the Composable Navigator seed.
@Suite struct NavigatorTests {
    @Test func theSeedsValidPaths() throws {
        for valid in ["/home", "/home/detail?id=0", "/home/settings"] {
            #expect(try seedNavigator.resolve(RoutingPath(parsing: valid)).path.description == valid)
        }
    }

    @Test func anyOfTakesTheFirstThatMatches() throws {
        struct Plain: ParameterlessScreen { static let name = "same" }
        struct WithX: Screen {
            static let name = "same"
            let x: Int?
            init(parameters: ScreenParameters) throws { x = try parameters.optional("x") }
            var parameters: ScreenParameters { x.map { ["x": "\($0)"] } ?? [:] }
        }
        // Both take `/same`: the first listed wins.
        #expect(
            try Navigator.anyOf(.screen(WithX.self), .screen(Plain.self)).resolve(RoutingPath(parsing: "/same")).elements[0]
                .screen is WithX)
        #expect(
            try Navigator.anyOf(.screen(Plain.self), .screen(WithX.self)).resolve(RoutingPath(parsing: "/same")).elements[0]
                .screen is Plain)
        // Only one takes `/same?x=1`: it wins wherever it is.
        #expect(
            try Navigator.anyOf(.screen(Plain.self), .screen(WithX.self)).resolve(RoutingPath(parsing: "/same?x=1")).elements[0]
                .screen is WithX)
    }

    /// The seed's login condition with wildcards.
    static func loginNavigator(_ session: Session) -> Navigator {
        .conditional(
            either: .wildcard(screen: HomeScreen(), navigator: seedNavigator),
            or: .wildcard(screen: LoginScreen(), navigator: .screen(LoginScreen.self)),
            basedOn: { session.isLoggedIn },
            label: "logged in"
        )
    }

    @Test func theConditionIsCheckedOnEveryResolution() throws {
        let session = Session()
        let navigator = Self.loginNavigator(session)
        // Logged out, any path lands on the login screen.
        #expect(try navigator.resolve(RoutingPath(parsing: "/home/detail?id=3")).path.description == "/login")
        #expect(try navigator.resolve(RoutingPath(parsing: "/anything/else")).path.description == "/login")
        session.logIn()
        #expect(try navigator.resolve(RoutingPath(parsing: "/home/detail?id=3")).path.description == "/home/detail?id=3")
        // The wildcard makes the first screen home, whatever it was.
        #expect(try navigator.resolve(RoutingPath(parsing: "/login/settings")).path.description == "/home/settings")
    }

    @Test func aConditionWithoutAWildcardRefusesAndSaysSo() throws {
        let session = Session()
        let navigator = Navigator.conditional(
            either: seedNavigator, or: .screen(LoginScreen.self),
            basedOn: { session.isLoggedIn }, label: "logged in"
        )
        #expect(throws: DeepLinkError(segment: 0, .refusedByCondition("not logged in"))) {
            try navigator.resolve(RoutingPath(parsing: "/home"))
        }
    }

    @Test func aWildcardDropsWhatItsNavigatorDoesNotTake() throws {
        let navigator = Navigator.wildcard(screen: HomeScreen(), navigator: seedNavigator)
        #expect(try navigator.resolve(RoutingPath(parsing: "/x/settings/more/more")).path.description == "/home/settings")
    }
}
