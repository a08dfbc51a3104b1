import ComposeEmitters
import ComposeTestSupport
import Dispatch
import Synchronization
import Testing

@testable import ComposeStore

@Suite struct ObserveTests {
    @Test func firesOnlyWhenTheObservedValueChanges() {
        let store = Store<Profile>()
        let names = Recorder<String>()
        store.observe(\.firstName) { names.record($0) }

        store.firstName = "Jill"
        store.lastName = "Valentine"  // elsewhere: not heard
        store.firstName = "Jill"  // same value: not heard
        store.state.age = 23  // whole-state write elsewhere: not heard
        store.state.firstName = "Chris"  // whole-state write of the value: heard
        store.mutate {
            $0.firstName = "Claire"
            $0.age = 19
        }

        #expect(names.values == ["Jill", "Chris", "Claire"])
    }

    @Test func severalKeyPathsAtOnce() {
        let store = Store<Profile>()
        let output = Recorder<String>()
        store.observe(\.firstName, \.lastName, \.age) { first, last, age in
            output.record("\(first) \(last) \(age)")
        }
        store.firstName = "Jill"
        store.tags = ["x"]  // none of the three: not heard
        store.age = 23
        store.mutate {
            $0.firstName = "Chris"
            $0.lastName = "Redfield"
        }  // one batch, one call
        #expect(output.values == ["Jill  0", "Jill  23", "Chris Redfield 23"])
    }

    @Test func nestedAndComputedKeyPaths() {
        let store = Store<Profile>()
        let streets = Recorder<String>()
        let fullNames = Recorder<String>()
        store.observe(\.address.street) { streets.record($0) }
        store.observe(\.fullName) { fullNames.record($0) }  // computed: checked on every change
        store.address.street = "Main"
        store.address.city = "Raccoon City"  // next to `street`, not it
        store.firstName = "Jill"
        store.age = 1  // changes nothing the full name depends on
        #expect(streets.values == ["Main"])
        #expect(fullNames.values == ["Jill "])
    }

    @Test func stringsWithEqualContentButDifferentStorageDoNotFire() {
        let store = Store<Profile>()
        let names = Recorder<String>()
        store.firstName = String(repeating: "a", count: 40)
        store.observe(\.firstName) { names.record($0) }
        // A new heap buffer with the same characters: the bits differ, `==` says equal.
        store.firstName = String(repeating: "a", count: 20) + String(repeating: "a", count: 20)
        #expect(names.values.isEmpty)
    }

    @Test func handlersRunInSubscriptionOrder() {
        let store = Store<Profile>()
        let order = Recorder<Int>()
        store.observe(\.age) { _ in order.record(1) }
        store.observe(\.firstName, \.age) { _, _ in order.record(2) }
        store.observe(\.fullName) { _ in order.record(3) }
        store.observe(\.age) { _ in order.record(4) }
        store.mutate {
            $0.age = 1
            $0.firstName = "Jill"
        }
        #expect(order.values == [1, 2, 3, 4])
    }

    @Test func cancellingStopsTheHandler() {
        let store = Store<Profile>()
        let ages = Recorder<Int>()
        let subscription = store.observe(\.age) { ages.record($0) }
        store.age = 1
        subscription.cancel()
        store.age = 2
        #expect(ages.values == [1])
        #expect(store.observerCount == 0)
    }

    @Test func anObserverCancelledDuringANotificationIsSkipped() {
        let store = Store<Profile>()
        let later = Recorder<Int>()
        let victim = Recorder<EmitterSubscription>()
        store.observe(\.age) { _ in victim.values.first?.cancel() }
        victim.record(store.observe(\.age) { later.record($0) })
        store.age = 1
        #expect(later.values.isEmpty)
    }

    @Test func observersJoinTheCurrentScope() {
        let store = Store<Profile>()
        let scope = ObservationScope()
        scope.run {
            store.observe(\.age) { _ in }
            store.willChange += { _ in }
        }
        #expect(store.observerCount == 1)
        scope.end()
        #expect(store.observerCount == 0)
        #expect(scope.activeSubscriptionCount == 0)
    }

    @Test func asyncSubscribeHearsSuccessesAndFailures() {
        struct Offline: Error {}
        struct State: AnyState {
            var profile: Async<String> = .uninitialized
        }
        let store = Store<State>()
        let output = Recorder<String>()
        store.asyncSubscribe(\.profile, onSuccess: { output.record("ok \($0)") }, onFailure: { output.record("failed \($0)") })
        store.profile = .loading(previous: nil)
        store.profile = .success("Jill")
        store.profile = .loading(previous: "Jill")
        store.profile = .failure(AsyncFailure(Offline()), previous: "Jill")
        store.profile = .success("Jill")
        #expect(output.values == ["ok Jill", "failed Offline()", "ok Jill"])
    }
}

/// An observer that writes to the store while being notified: no deadlock, no lost change, and
/// every observer hears the changes in the order they were made.
@Suite struct ReentrancyTests {
    @Test func anObserverThatWritesIsNotifiedAfterTheCurrentNotification() {
        let store = Store<Profile>()
        let log = Recorder<String>()
        store.observe(\.firstName) { name in
            log.record("first:\(name)")
            if name == "Jill" {
                store.lastName = "Valentine"  // commits at once...
                log.record("read:\(store.lastName)")  // ...so it is read back at once
            }
        }
        store.observe(\.lastName) { name in log.record("last:\(name)") }
        store.observe(\.firstName) { name in log.record("second first-observer:\(name)") }

        store.firstName = "Jill"

        // The first-name notification finishes (all its observers) before the last-name one.
        #expect(
            log.values == [
                "first:Jill", "read:Valentine", "second first-observer:Jill", "last:Valentine",
            ]
        )
    }

    @Test func aChainOfWritesFromObserversLosesNothing() {
        let store = Store<Profile>()
        let ages = Recorder<Int>()
        store.observe(\.age) { age in
            ages.record(age)
            if age < 10 { store.mutate { $0.age += 1 } }
        }
        store.age = 1
        #expect(ages.values == Array(1...10))
        #expect(store.age == 10)
    }

    @Test func willChangeSeesEveryStateInCommitOrder() {
        let store = Store<Profile>()
        let states = Recorder<Int>()
        store.willChange += { state in
            states.record(state.age)
            if state.age == 1 { store.age = 2 }
        }
        store.willChange += { state in
            if state.age == 2 { store.age = 3 }
        }
        store.age = 1
        #expect(states.values == [1, 2, 3])
    }

    @Test func observersNeverOverlapWhileThreadsWrite() async {
        let store = Store<Profile>()
        let inside = Atomic<Int>(0)
        let overlaps = Atomic<Int>(0)
        store.observe(\.age) { _ in
            if inside.add(1, ordering: .acquiringAndReleasing).newValue != 1 { overlaps.add(1, ordering: .relaxed) }
            inside.subtract(1, ordering: .acquiringAndReleasing)
        }
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask { for _ in 0..<2_000 { store.mutate { $0.age += 1 } } }
            }
        }
        #expect(overlaps.load(ordering: .relaxed) == 0)
        #expect(store.age == 8_000)
    }

    @Test func theLastValueAlwaysArrives() async {
        // Under contention an observer may hear several writes as one, but never ends on a
        // stale value.
        let store = Store<Profile>()
        let last = Recorder<Int>()
        store.observe(\.age) { last.record($0) }
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask { for _ in 0..<1_000 { store.mutate { $0.age += 1 } } }
            }
        }
        #expect(await eventually { last.values.last == 4_000 })
        let heard = last.values
        #expect(heard == heard.sorted())  // never backwards
    }
}

/// Adding an observer reads its key paths, which can be user code: it does so without the
/// store's lock, and an observer added while another thread commits still hears the last value.
@Suite struct ObserverRegistrationTests {
    struct Reading: AnyState {
        var value = 0
        /// User code: reads the store it belongs to (through a global, as an app might).
        var echoed: Int {
            _ = ObserverRegistrationTests.current.value?.state.value
            return value
        }
        /// User code that runs a hook the test sets while it is read.
        var slowly: Int {
            ObserverRegistrationTests.duringRead.value?()
            return value
        }
    }

    static let duringRead = LockedBox<(@Sendable () -> Void)?>(nil)

    static let current = LockedBox<Store<Reading>?>(nil)

    /// Before the fix, the computed getter ran under the store's lock and relocked it: a crash
    /// in debug builds, a deadlock in release builds.
    @Test(.timeLimit(.minutes(5)))
    func aComputedKeyPathIsReadWithoutTheStoresLock() {
        let store = Store<Reading>()
        Self.current.mutate { $0 = store }
        defer { Self.current.mutate { $0 = nil } }
        let heard = Recorder<Int>()
        store.observe(\.echoed) { heard.record($0) }
        _ = store.echoed  // Observation's first read of the key path, also without the lock
        store.value = 1
        #expect(heard.values == [1])
    }

    /// A commit that lands, and is delivered, while an observer is being added (between the
    /// read of its values and its registration) is not missed: the observer hears it. The
    /// computed key path makes the window deterministic: reading it has another thread write
    /// and finish notifying before the observer is registered.
    @Test(.timeLimit(.minutes(5)))
    func aCommitDeliveredWhileAnObserverIsAddedIsNotMissed() async {
        let store = Store<Reading>()
        let heard = Recorder<Int>()
        Self.current.mutate { $0 = store }
        defer { Self.current.mutate { $0 = nil } }
        let writeNow = DispatchSemaphore(value: 0)
        let written = DispatchSemaphore(value: 0)
        Self.duringRead.mutate { hook in
            hook = {
                Self.duringRead.mutate { $0 = nil }  // once
                writeNow.signal()
                written.wait()
            }
        }
        await onThreads(2) { thread in
            if thread == 0 {
                store.observe(\.slowly) { heard.record($0) }
            } else {
                writeNow.wait()
                store.value = 42  // commits and delivers its notice before returning
                written.signal()
            }
        }
        #expect(heard.values == [42])
    }

    /// 200 observers are added on one thread while another writes 1 to 2,000: every observer
    /// ends on 2,000, whether it heard it or its first read already saw it.
    @Test func anObserverAddedDuringCommitsEndsOnTheLastValue() async {
        let store = Store<Profile>()
        let final = 2_000
        let outcomes = LockedBox<[(heard: Recorder<Int>, seenAfter: Int)]>([])
        await onThreads(2) { thread in
            if thread == 0 {
                for value in 1...final { store.age = value }
            } else {
                for _ in 0..<200 {
                    let heard = Recorder<Int>()
                    store.observe(\.age) { heard.record($0) }
                    let seenAfter = store.age
                    outcomes.mutate { $0.append((heard, seenAfter)) }
                }
            }
        }
        for (heard, seenAfter) in outcomes.value {
            // Its first read was at most `seenAfter`; if that was not the last value, it must
            // have heard the last value since.
            #expect(heard.values.last == final || (heard.values.isEmpty && seenAfter == final))
        }
    }
}
