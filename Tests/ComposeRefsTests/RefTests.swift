import ComposeEmitters
import ComposeTestSupport
import Foundation
import Synchronization
import Testing

@testable import ComposeRefs
@testable import ComposeStore

@Suite struct RefTests {
    @Test func aDeclaredValueJoinsTheLiveEntityAndTheLiveValueWins() {
        let card = Card.fresh("live")
        let first = Ref(wrappedValue: card)
        var declared = card
        declared.title = "declared"
        let second = Ref(wrappedValue: declared)
        #expect(second.wrappedValue.title == "live")
        #expect(first.projectedValue == second.projectedValue)
    }

    @Test func aDeclaredValueStartsAnEntityNobodyHolds() {
        let card = Card.fresh("first")
        do { _ = Ref(wrappedValue: card) }  // gone again
        let again = Ref(wrappedValue: Card(id: card.id, title: "second"))
        #expect(again.wrappedValue.title == "second")
    }

    @Test func assigningWritesTheEntityLastWriteWins() {
        let card = Card.fresh("a")
        var first = Ref(wrappedValue: card)
        let second = Ref(first.projectedValue)
        first.wrappedValue.title = "b"
        #expect(second.wrappedValue.title == "b")
        first.wrappedValue = Card(id: card.id, title: "c")
        #expect(second.wrappedValue.title == "c")
    }

    @Test func assigningAnotherIDPointsTheRefAtThatEntity() {
        let cardA = Card.fresh("a")
        let cardB = Card.fresh("b")
        let holderOfB = Referred(cardB)
        let store = cardStore(Referred(cardA))
        let titles = Recorder<String>()
        store.observe(\.card.title) { titles.record($0) }

        store.card = Card(id: cardB.id, title: "b, assigned")  // points at B, writes B
        #expect(holderOfB.value.title == "b, assigned")
        holderOfB.value.title = "b, written elsewhere"  // heard: the store holds B now
        #expect(store.card.title == "b, written elsewhere")
        #expect(titles.values == ["b, assigned", "b, written elsewhere"])
    }

    @Test func aStoreStopsHearingAnEntityItNoLongerHolds() {
        let cardA = Referred(Card.fresh("a"))
        let cardB = Referred(Card.fresh("b"))
        let store = cardStore(cardA)
        let titles = Recorder<String>()
        store.observe(\.card.title) { titles.record($0) }
        store.state.$card = cardB
        cardA.value.title = "a, changed"  // not heard
        cardB.value.title = "b, changed"
        #expect(titles.values == ["b", "b, changed"])
        #expect(cardA.entry.listenerCount == 0)
    }

    @Test func equalWritesNotifyNobody() {
        let referred = Referred(Card.fresh("same"))
        let store = cardStore(referred)
        let heard = Recorder<String>()
        store.observe(\.card) { heard.record($0.title) }
        store.willChange += { heard.record("willChange " + $0.card.title) }
        store.card.title = "same"
        referred.value = referred.value
        referred.mutate { $0.title = "same" }
        #expect(heard.values.isEmpty)
        referred.value.title = "changed"
        #expect(heard.values == ["changed", "willChange changed"])
    }

    @Test func aStoreOnlyHearsTheValuesItsObserversWatch() {
        let referred = Referred(Card.fresh("title"))
        let store = cardStore(referred)
        let titles = Recorder<String>()
        let notes = Recorder<String>()
        store.observe(\.card.title) { titles.record($0) }
        store.observe(\.note) { notes.record($0) }
        referred.value.count = 5  // neither the title nor the note
        #expect(titles.values.isEmpty && notes.values.isEmpty)
        referred.value.title = "new"
        #expect(titles.values == ["new"])
        #expect(notes.values.isEmpty)
    }

    /// A value whose `==` counts its calls: an observer compares what it watches only when it
    /// is looked at.
    struct Compared: Equatable, Sendable {
        static let comparisons = Atomic<Int>(0)
        var value = 0

        static func == (lhs: Compared, rhs: Compared) -> Bool {
            comparisons.add(1, ordering: .relaxed)
            return lhs.value == rhs.value
        }
    }

    struct CardAndCounterState: AnyState {
        @Ref var card: Card
        var counter = Compared()
    }

    /// A referenced write reaches the observers that can read the entity (through the `@Ref`,
    /// or a computed property), never one of a stored property elsewhere in the state, however
    /// many there are: it is not even compared.
    @Test func aReferencedWriteLooksOnlyAtObserversThatCanReadTheEntity() {
        let referred = Referred(Card.fresh("first"))
        let store = Store<CardAndCounterState>()
        store.state.$card = referred
        let titles = Recorder<String>()
        let counters = Recorder<Int>()
        store.observe(\.card.title) { titles.record($0) }
        store.observe(\.counter) { counters.record($0.value) }
        let before = Compared.comparisons.load(ordering: .relaxed)
        for index in 1...10 { referred.value.title = "title \(index)" }
        #expect(titles.values == (1...10).map { "title \($0)" })
        #expect(Compared.comparisons.load(ordering: .relaxed) == before)
        store.counter = Compared(value: 1)  // a write of the counter itself is still heard
        #expect(counters.values == [1])
    }

    @Test func mutateIsAtomicAndNotifiesOnce() {
        let referred = Referred(Card.fresh())
        let store = cardStore(referred)
        let counts = Recorder<Int>()
        store.observe(\.card.count) { counts.record($0) }
        let result = referred.mutate { card -> String in
            card.count += 1
            card.count += 1
            return "done"
        }
        #expect(result == "done")
        #expect(counts.values == [2])
    }

    @Test func refsAreEqualWhenTheirValuesAre() {
        let card = Card.fresh("x")
        let first = Ref(wrappedValue: card)
        let same = Ref(first.projectedValue)
        let other = Ref(wrappedValue: Card.fresh("x"))
        #expect(first == same)
        #expect(first != other)  // other ids: other values
        #expect(Ref<Card>() == Ref<Card>())
        #expect(Ref<Card>() != first)
        #expect(Ref<Card>().isEmpty && !first.isEmpty)
    }

    @Test func describesItsValue() {
        let ref = Ref(wrappedValue: Card(id: "described-\(UUID())", title: "t"))
        #expect(ref.description.contains("title: \"t\""))
        #expect(Ref<Card>().description == "empty")
        #expect(Referred(ref.wrappedValue).description.hasPrefix("Referred(ComposeRefsTests.Card(id:"))
    }

    @Test func readingAnEmptyRefIsAClearError() async {
        await #expect(processExitsWith: .failure) {
            _ = Ref<Card>().wrappedValue
        }
        await #expect(processExitsWith: .failure) {
            _ = Ref<Card>().projectedValue
        }
    }

    @Test func changingAnEntitysIDThroughAReferredIsAClearError() async {
        await #expect(processExitsWith: .failure) {
            let referred = Referred(Card(id: "id-change", title: ""))
            referred.value = Card(id: "another", title: "")
        }
        await #expect(processExitsWith: .failure) {
            Referred(Card(id: "id-change", title: "")).mutate { $0.id = "another" }
        }
    }

    @Test func aWriteInsideMutateReachesTheEntityAtOnce() {
        let referred = Referred(Card.fresh())
        let store = cardStore(referred)
        let counts = Recorder<Int>()
        store.observe(\.card.count) { counts.record($0) }
        store.mutate { state in
            state.card.count = 7
            #expect(referred.value.count == 7)
            state.note = "with a note"
        }
        #expect(store.note == "with a note")
        #expect(counts.values == [7])
    }
}

@Suite struct NestedRefTests {
    struct Profile: Equatable, Sendable {
        var nickname = ""
        @Ref var card: Card
    }

    struct AccountState: AnyState {
        var id = 0
        var profile = Profile()
    }

    @Test func aRefInANestedStructIsHeard() {
        let referred = Referred(Card.fresh("nested"))
        let store = Store<AccountState>()
        store.state.profile.$card = referred
        let titles = Recorder<String>()
        store.observe(\.profile.card.title) { titles.record($0) }
        referred.value.title = "changed elsewhere"
        #expect(titles.values == ["changed elsewhere"])

        // Re-pointed through the nested struct: the store follows.
        let other = Referred(Card.fresh("other"))
        store.profile.$card = other
        referred.value.title = "not heard"
        other.value.title = "heard"
        #expect(titles.values == ["changed elsewhere", "other", "heard"])
    }

    @Test func writesElsewhereInTheStateDoNotLookForReferencesAgain() {
        let referred = Referred(Card.fresh())
        let store = Store<AccountState>()
        store.state.profile.$card = referred
        for id in 1...100 { store.id = id }
        store.profile.nickname = "nick"
        #expect(referred.entry.listenerCount == 1)
        #expect(store.storage.references?.layout.words.count == 1)
    }
}
