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

    /// A write through the whole state (`state.x = value`, `state.list.append(y)`) is not a
    /// read: a tracking body that only writes tracks nothing.
    @Test func aWriteThroughTheWholeStateTracksNothing() {
        let store = Store<Profile>()
        let tracking = Tracking { store.state.age = 1 }
        store.firstName = "Jill"
        store.state.tags.append("x")
        #expect(tracking.fired.count == 0)
    }

    /// A nested keyed write (`$state.address.city = value`) reads `address` only to write it
    /// back: no Observation observer is registered for it, and the observers of `address` hear
    /// the write.
    @Test func aNestedKeyedWriteRegistersNoObservationObserver() {
        let store = Store<Profile>()
        let heard = Recorder<String>()
        store.observe(\.address) { heard.record($0.city) }
        let before = store.observerCount
        store.address.city = "Raccoon City"
        store.tags.append("x")
        #expect(store.observerCount == before)
        #expect(heard.values == ["Raccoon City"])
        #expect(store.state.tags == ["x"])
    }

    /// Whole-state reports start with the first whole-state read, and never stop: many writes
    /// nobody heard before a tracker read the state do not make the tracker miss the next one.
    @Test func aWholeStateTrackerAfterUnheardWritesHearsTheNextWrite() {
        let store = Store<Profile>()
        for age in 1...100 { store.age = age }  // nobody hears these
        let first = Tracking { _ = store.state }
        store.age = 101
        #expect(first.fired.count == 1)
        let second = Tracking { _ = store.state }
        store.firstName = "Jill"
        #expect(second.fired.count == 1)
    }

    /// A write nobody hears still commits: every read, keyed or whole, sees it at once.
    @Test func aWriteNobodyHearsIsStillCommitted() {
        let store = Store<Profile>()
        store.age = 7
        store.state.lastName = "Valentine"
        store.mutate { $0.firstName = "Jill" }
        #expect(store.age == 7)
        #expect(store.state.lastName == "Valentine")
        #expect(store.firstName == "Jill")
    }
}
