import ComposeEmitters
import ComposeTestSupport
import Testing

@testable import ComposeStore

/// `willChange`, `didChange` and `changed` (autosave's) tell of values that changed, as `==`
/// says, not of bytes: a write whose bytes differ while its value is equal notifies nobody.
@Suite struct ValueChangeTests {
    struct Measures: AnyState {
        var flag = false  // followed by seven bytes of padding
        var count = 0
        var tags: Set<String> = []
        var level = 0.0
    }

    /// What hears a commit: the two change emitters, `changed`, and a keypath observer.
    final class Ears: Sendable {
        let willChange = Recorder<Measures>()
        let didChange = Recorder<StateChange<Measures>>()
        let changed = Recorder<Void>()
        let level = Recorder<Double>()
        let subscriptions: [EmitterSubscription]

        init(_ store: Store<Measures>) {
            let (willChange, didChange, changed, level) = (willChange, didChange, changed, level)
            subscriptions = [
                store.willChange += { willChange.record($0) },
                store.didChange += { didChange.record($0) },
                store.storage.changed.register { changed.record(()) },
                store.observe(\.level) { level.record($0) },
            ]
        }

        var counts: [Int] { [willChange.count, didChange.count, changed.count] }
    }

    @Test func aRebuiltEqualSetNotifiesNobody() {
        let store = Store<Measures>()
        let ears = Ears(store)
        store.tags = ["a", "b", "c"]
        #expect(ears.counts == [1, 1, 1])
        var rebuilt = Set<String>(minimumCapacity: 64)  // other storage, other bytes
        rebuilt.formUnion(["c", "b", "a"])
        store.tags = rebuilt
        #expect(ears.counts == [1, 1, 1])
        store.state = Measures(tags: ["a", "b", "c"])  // whole-state: equal, other bytes
        #expect(ears.counts == [1, 1, 1])
    }

    @Test func negativeZeroForZeroNotifiesNobody() {
        let store = Store<Measures>()
        let ears = Ears(store)
        store.level = -0.0
        store.mutate { $0.level = 0.0 }
        store.state = Measures(level: -0.0)
        #expect(ears.counts == [0, 0, 0])
        #expect(ears.level.values == [])
        store.level = 1.5
        #expect(ears.counts == [1, 1, 1])
        #expect(ears.level.values == [1.5])
    }

    @Test func otherPaddingNotifiesNobody() {
        let store = Store<Measures>()
        let ears = Ears(store)
        var padded = Measures()
        withUnsafeMutableBytes(of: &padded) { bytes in
            let flagEnd = MemoryLayout<Bool>.size
            #expect(MemoryLayout<Measures>.offset(of: \.count)! > flagEnd)  // there is padding
            bytes[flagEnd] = 0xAB
        }
        store.state = padded
        #expect(ears.counts == [0, 0, 0])
    }

    /// NaN is not `==` to itself. A keyed write of the same NaN writes the same bytes: no change,
    /// and `==` is not asked. A `mutate` or a whole-state write copies the state (its padding
    /// with it, or not), so `==` is asked, and says the state changed: it is heard. The
    /// Guarantees article says so: `==` must hold of a value and itself.
    @Test func aKeyedWriteOfTheSameNaNNotifiesNobody() {
        let store = Store<Measures>()
        let ears = Ears(store)
        store.level = .nan
        #expect(ears.counts == [1, 1, 1])
        let state = store.state
        #expect(state != state)  // by `==`, the state differs from itself
        store.level = .nan
        #expect(ears.counts == [1, 1, 1])
        #expect(ears.level.count == 1)
    }

    /// A value that changed is heard once per commit, by each.
    @Test func aChangedValueIsHeardByEach() {
        let store = Store<Measures>()
        let ears = Ears(store)
        store.flag = true
        store.count = 2
        #expect(ears.counts == [2, 2, 2])
        #expect(ears.didChange.values.last?.new.count == 2)
    }
}
