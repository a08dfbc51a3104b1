import ComposeEmitters
import ComposeStore
import ComposeTestSupport
import Testing

/// The "@Store And State Management" and "Tracking State Statuses" examples of Compose's
/// README, run as written, with `print` replaced by a recorder.
@Suite struct SeedExampleTests {
    // LogIn.swift / LogIn+State.swift
    struct LogInComponent {
        @Store var state: State

        struct State: AnyState {
            var firstName = ""
            var lastName = ""
        }
    }

    @Test func storeHoldsTheStateAndCopiesShareIt() {
        let component = LogInComponent()
        let copy = component
        copy.state.firstName = "Jill"
        #expect(component.state.firstName == "Jill")
        #expect(component.state == LogInComponent.State(firstName: "Jill", lastName: ""))
    }

    @Test func willChange() {
        let component = LogInComponent()
        let output = Recorder<String>()
        // LogIn+Observers.swift
        component.$state.willChange += { state in
            output.record("New full name is \(state.firstName) \(state.lastName).")
        }
        component.state.firstName = "Jill"
        component.state.lastName = "Valentine"
        #expect(output.values == ["New full name is Jill .", "New full name is Jill Valentine."])
    }

    @Test func willChangeUndupTap() {
        let component = LogInComponent()
        let output = Recorder<String>()
        component.$state.willChange.undup().tap(\.firstName) += { firstName in
            output.record("New firstName is \(firstName)")
        }
        let changesOnly = Recorder<String>()
        component.$state.willChange.tap(\.firstName).undup() += { changesOnly.record($0) }

        component.state.firstName = "Jill"
        component.state.lastName = "Valentine"
        component.state.firstName = "Chris"

        // As written, `undup()` drops repeated *states*, so a change of the last name repeats the
        // first name; tapping first and undupping after hears first-name changes only.
        #expect(output.values == ["New firstName is Jill", "New firstName is Jill", "New firstName is Chris"])
        #expect(changesOnly.values == ["Jill", "Chris"])
    }

    @Test func bindingReadsAndWritesTheState() {
        let component = LogInComponent()
        // What `TextField("First Name", text: $state.binding.firstName)` does.
        let firstName = component.$state.binding.firstName
        firstName.set("Jill")
        #expect(component.state.firstName == "Jill")
        component.state.firstName = "Chris"
        #expect(firstName.get() == "Chris")
        #expect(firstName.wrappedValue == "Chris")
    }

    // Tracking State Statuses
    enum Status: String, AnyStatus {
        case loading, loadingProfile
    }

    struct StatusComponent {
        @Store var state: State
        let login = SignalEmitter()

        struct State: AnyState {
            var status = StatusSet<Status>()
            var email: String = ""
            var password: String = ""
        }

        /// Stands in for `services.network`: completes when told to.
        let loginFinished = SignalEmitter()
        let profileLoaded = SignalEmitter()

        var observers: Void {
            login += {
                state.status += .loading
                state.status += .loadingProfile
            }
            loginFinished += {
                state.status -= .loading
            }
            profileLoaded += {
                state.status -= .loadingProfile
            }
        }
    }

    @Test func statusesTrackProgress() {
        let component = StatusComponent()
        let scope = ObservationScope()
        scope.run { component.observers }

        component.login.send()
        #expect(component.state.status == [.loading, .loadingProfile])
        // `.opacity(state.status.isEmpty == false ? 1.0 : 0.0)`
        #expect(component.state.status.isEmpty == false)
        component.loginFinished.send()
        #expect(component.state.status == [.loadingProfile])
        component.profileLoaded.send()
        #expect(component.state.status.isEmpty)
        scope.end()
    }

    @Test func statusSetOperators() {
        var status = StatusSet<Status>()
        status += .loading
        #expect(status ~= .loading)
        #expect(status !~= .loadingProfile)
        status += .loadingProfile
        status += .loading  // a status is in the set once
        #expect(status.count == 2)
        status -= .loading
        #expect(status !~= .loading)
        status += .loading
        status |= .loadingProfile  // replaces every status
        #expect(status == [.loadingProfile])
    }
}
