import ComposeTestSupport
import Observation
import Testing

@testable import ComposeStore

/// The store in Swift's Observation framework: `withObservationTracking` hears only about what
/// its body read.
@Suite struct ObservationTests {
    /// Tracks `body`; returns how many times its onChange fired.
    final class Tracking: Sendable {
        let fired = Recorder<Void>()
        init(_ body: @escaping @Sendable () -> Void) {
            withObservationTracking(body) { [fired] in fired.record() }
        }
    }

    @Test func aKeyedReadIsTrackedAlone() {
        let store = Store<Profile>()
        let tracking = Tracking { _ = store.firstName }
        store.lastName = "Valentine"
        store.age = 23
        store.state.tags = ["x"]
        #expect(tracking.fired.count == 0)
        store.firstName = "Jill"
        #expect(tracking.fired.count == 1)
    }

    @Test func memberLookupTracksTheFirstLevelAndBindingsTrackTheWholePath() {
        let store = Store<Profile>()
        // `store.address.city` reads `\.address` from the store, then `.city` from the value, as
        // with an @Observable class holding a struct: a change of the street is heard.
        let first = Tracking { _ = store.address.city }
        // A binding composes its key path: only `\.address.city` is tracked.
        let city = store.binding.address.city
        let exact = Tracking { _ = city.wrappedValue }

        store.state.address.street = "Main"  // a whole-state write
        #expect(first.fired.count == 1)
        #expect(exact.fired.count == 0)
        store.state.address.city = "Raccoon City"
        #expect(exact.fired.count == 1)
    }

    @Test func writingAnEqualValueIsNotHeard() {
        let store = Store<Profile>(wrappedValue: Profile(firstName: "Jill"))
        let tracking = Tracking { _ = store.firstName }
        store.firstName = "Jill"
        store.mutate { $0.firstName = "Jill" }
        #expect(tracking.fired.count == 0)
    }

    @Test func aWholeStateReadHearsEveryChange() {
        let store = Store<Profile>()
        let tracking = Tracking { _ = store.state }
        store.age = 1
        #expect(tracking.fired.count == 1)
    }

    @Test func bindingsReadKeyedToo() {
        let store = Store<Profile>()
        let binding = store.binding.lastName
        let tracking = Tracking { _ = binding.wrappedValue }
        store.firstName = "Jill"
        #expect(tracking.fired.count == 0)
        binding.set("Valentine")
        #expect(tracking.fired.count == 1)
    }

    @Test func computedPropertiesAreTrackedByValue() {
        let store = Store<Profile>()
        let tracking = Tracking { _ = store.fullName }
        store.age = 3
        #expect(tracking.fired.count == 0)
        store.lastName = "Valentine"
        #expect(tracking.fired.count == 1)
    }
}
