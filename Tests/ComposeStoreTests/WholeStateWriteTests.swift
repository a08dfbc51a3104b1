import ComposeEmitters
import ComposeTestSupport
import Dispatch
import Testing

@testable import ComposeStore

/// Whole-state writes (`store.state.x = v`, `store.state = s`) to a state wide enough that a
/// store heard only by keypath observers compares just the observed words (see
/// `StoreStorage.commitComparingObservedWordsOnly`): every field is committed, observed or not,
/// and each observer hears exactly the changes of its own value.
@Suite struct WholeStateWriteTests {
    /// 64 words of plain bits.
    struct Wide: AnyState {
        struct Block: Equatable, Sendable {
            var a = 0, b = 0, c = 0, d = 0, e = 0, f = 0, g = 0, h = 0
        }
        var b0 = Block(), b1 = Block(), b2 = Block(), b3 = Block()
        var b4 = Block(), b5 = Block(), b6 = Block(), b7 = Block()
    }

    /// Strings and an array beside 40 words of plain bits: not plain bits as a whole.
    struct WideWithReferences: AnyState {
        var name = ""
        var bio = ""
        var tags: [String] = []
        var numbers = Wide.Block(), more = Wide.Block(), still = Wide.Block(), last = Wide.Block()
        var count = 0
    }

    @Test func everyFieldIsCommittedAndOnlyObservedChangesAreHeard() {
        #expect(_isPOD(Wide.self))
        let store = Store<Wide>()
        let first = Recorder<Int>()
        let last = Recorder<Int>()
        store.observe(\.b0.a) { first.record($0) }
        store.observe(\.b7.h) { last.record($0) }

        store.state.b3.c = 7  // not observed: committed, heard by nobody
        store.state.b0.a = 1
        store.state.b0.a = 1  // the same bits: heard by nobody
        var replacement = store.state
        replacement.b7.h = 2
        replacement.b6.g = 3
        replacement.b0.a = 4
        store.state = replacement

        #expect(first.values == [1, 4])
        #expect(last.values == [2])
        let state = store.state
        #expect(state.b3.c == 7 && state.b6.g == 3 && state.b7.h == 2 && state.b0.a == 4)
        var expected = Wide()
        expected.b3.c = 7
        expected.b0.a = 4
        expected.b7.h = 2
        expected.b6.g = 3
        #expect(state.b0 == expected.b0 && state.b3 == expected.b3 && state.b6 == expected.b6)
        #expect(state.b7 == expected.b7)
    }

    @Test func aStateWithReferencesIsCommittedWholeToo() {
        #expect(!_isPOD(WideWithReferences.self))
        let store = Store<WideWithReferences>()
        let names = Recorder<String>()
        store.observe(\.name) { names.record($0) }

        store.state.bio = String(repeating: "long enough to live on the heap ", count: 4)
        store.state.tags = ["a", "b"]
        store.state.name = "Jill"
        store.state.numbers.h = 9
        store.state.name = "Jill"

        #expect(names.values == ["Jill"])
        let state = store.state
        #expect(state.bio.hasPrefix("long enough") && state.tags == ["a", "b"] && state.numbers.h == 9)
    }

    /// An observer added between writes hears the writes after it, and one cancelled no longer
    /// does: the words compared follow the observers.
    @Test func theComparedWordsFollowTheObservers() {
        let store = Store<Wide>()
        let early = Recorder<Int>()
        let late = Recorder<Int>()
        let earlySubscription = store.observe(\.b1.b) { early.record($0) }
        store.state.b1.b = 1
        store.state.b2.c = 1  // nobody observes it yet
        let lateSubscription = store.observe(\.b2.c) { late.record($0) }
        store.state.b2.c = 2
        earlySubscription.cancel()
        store.state.b1.b = 3
        store.state.b2.c = 3
        lateSubscription.cancel()
        store.state.b2.c = 4

        #expect(early.values == [1])
        #expect(late.values == [2, 3])
        #expect(store.state.b1.b == 3 && store.state.b2.c == 4)
    }

    /// `mutate` commits the same way: every field, one notification per observer whose value
    /// changed, none for a body that changed nothing.
    @Test func aMutateCommitsEveryFieldAndNotifiesOnce() {
        let store = Store<Wide>()
        let first = Recorder<Int>()
        store.observe(\.b0.a) { first.record($0) }
        store.mutate {
            $0.b0.a = 1
            $0.b0.a = 2
            $0.b5.e = 3
        }
        store.mutate { $0.b0.a = 2 }  // the same bits: heard by nobody
        store.mutate { $0.b6.f = 4 }  // not observed
        #expect(first.values == [2])
        let state = store.state
        #expect(state.b0.a == 2 && state.b5.e == 3 && state.b6.f == 4)
    }

    /// `mutate` never loses a write, on this path too: threads incrementing fields, observed and
    /// not, end on every increment.
    @Test func mutatesFromSeveralThreadsLoseNoIncrement() async {
        let store = Store<Wide>()
        let heard = Recorder<Int>()
        store.observe(\.b0.a) { heard.record($0) }
        let fields: [any WritableKeyPath<Wide, Int> & Sendable] = [\.b0.a, \.b3.d, \.b3.e, \.b7.h]
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for _ in 0..<250 {
                store.mutate { $0[keyPath: fields[thread % fields.count]] += 1 }
            }
        }
        let state = store.state
        for field in fields { #expect(state[keyPath: field] == 500) }
        #expect(heard.values.last == 500)
    }

    /// Whole-state writes from several threads, each to its own observed field: each write is a
    /// read-modify-write of the whole state, so a write can undo another thread's (the
    /// documented difference from `mutate`), but every observer hears its field's last value
    /// last, and the store ends on a state some write committed.
    @Test func writesFromSeveralThreadsEndOnTheLastValueEachObserverHeard() async {
        let store = Store<Wide>()
        let fields: [any WritableKeyPath<Wide, Int> & Sendable] = [\.b0.a, \.b2.b, \.b4.c, \.b6.d]
        let heard = fields.map { _ in Recorder<Int>() }
        for (field, recorder) in zip(fields, heard) {
            store.observe(field) { recorder.record($0) }
        }
        DispatchQueue.concurrentPerform(iterations: fields.count) { thread in
            for value in 1...500 {
                store.state[keyPath: fields[thread]] = value
            }
        }
        let final = store.state
        for (field, recorder) in zip(fields, heard) {
            #expect(recorder.values.last ?? 0 == final[keyPath: field])
        }
    }
}
