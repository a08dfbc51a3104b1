import Compose
import ComposeTestSupport
import ComposeTesting
import Foundation
import Testing

/// The Compose README's examples, tested with ComposeTesting in their shortest form.
@Suite struct SeedExampleTests {
    // MARK: Emitters

    @Test func debounce() async {
        let clock = TestClock()
        // Define an emitter.
        let emitter = SignalEmitter()
        let received = emitter.debounce(interval: .seconds(1), clock: clock).record()
        // Send signal 100 times.
        for _ in 0..<100 { emitter.send() }
        await clock.settle(by: .seconds(1))
        received.expectCount(1)  // executed only once
    }

    // MARK: Statuses, validation and services

    enum Status: String, AnyStatus {
        case loading, loadingProfile
    }

    /// The README's network service, with completions the test calls.
    final class NetworkService: Service, @unchecked Sendable {
        private let pending = LockedBox<[String: @Sendable () -> Void]>([:])
        init() {}
        func login(email: String, password: String, completion: @escaping @Sendable () -> Void) {
            pending.mutate { $0["login"] = completion }
        }
        func loadProfile(email: String, completion: @escaping @Sendable () -> Void) {
            pending.mutate { $0["profile"] = completion }
        }
        func complete(_ request: String) {
            let completion = pending.mutate { $0.removeValue(forKey: request) }
            completion?()
        }
    }

    struct LogInComponent: Component {
        @Store var state: State
        let login = SignalEmitter(label: "LogIn.login")

        struct State: AnyState {
            var status = StatusSet<Status>()
            var email: String = ""
            var password: String = ""

            @ValidationBuilder
            var credentials: Validation {
                Field(
                    email,
                    rules: [
                        .nonEmpty: "Email address must be non-empty",
                        .email: "Invalid email address format",
                    ])
                Field(
                    password,
                    rules: [
                        .length(6...1000): "Password must be at least 6 characters long"
                    ])
            }
        }

        var observers: Void {
            login += {
                state.status += .loading
                state.status += .loadingProfile

                services.network.login(email: state.email, password: state.password) {
                    state.status -= .loading
                }

                services.network.loadProfile(email: state.email) {
                    state.status -= .loadingProfile
                }
            }
        }
    }

    @Test func statusesFollowTheRequests() {
        let network = NetworkService()
        let component = ComponentTester(LogInComponent(), services: { $0.network = network })
        let state = StoreTester(component.root.$state)

        state.mutate({
            $0.email = "jill@example.com"
            $0.password = "secret"
        }) {
            $0.email = "jill@example.com"
            $0.password = "secret"
        }
        #expect(state.state.credentials.isValid)
        state.send(component.root.login) { $0.status = [.loading, .loadingProfile] }  // the tester's services
        state.run({ network.complete("login") }) { $0.status = [.loadingProfile] }
        state.run({ network.complete("profile") }) { $0.status = [] }
        component.unmount()
    }

    // MARK: Routing

    struct LogIn: Component {
        let openSignUp = SignalEmitter()
        var observers: Void { None }
    }

    struct SignUp: Component {
        let openLogIn = SignalEmitter()
        var observers: Void { None }
    }

    struct AuthComponent: RouterComponent {
        let logIn = LogIn()
        let signUp = SignUp()
        let router = Router(start: \Self.logIn)

        var observers: Void {
            logIn.openSignUp += { router.replace(\Self.signUp) }
            signUp.openLogIn += { router.replace(\Self.logIn) }
        }
    }

    @Test func routing() {
        let tester = ComponentTester(AuthComponent())
        tester.send(tester.root.logIn.openSignUp)
        tester.expectVisible(["AuthComponent", "AuthComponent/signUp"])
        tester.send(tester.root.signUp.openLogIn)
        tester.expectStack(tester.root.router, [\AuthComponent.logIn])
        tester.unmount()
    }

    // MARK: Persistence

    struct Fields: AnyState, Codable {
        var email = ""
    }

    @Test func aFailedSaveIsReported() {
        let storage = TestPersistentStorage()
        let store = Store<Fields>(storage: storage)
        storage.failNextWrite()
        #expect(throws: PersistenceError.self) { try store.persistence.save() }
    }
}

extension Services {
    var network: SeedExampleTests.NetworkService {
        get { self[SeedExampleTests.NetworkService.self] }
        set { self[SeedExampleTests.NetworkService.self] = newValue }
    }
}
