import ComposeEmitters
import ComposeStore
import ComposeTestSupport
import Testing

@testable import ComposeRefs

@Suite struct RefCollectionTests {
    /// A deck of `count` fresh cards, and a card store per element.
    func deckWithChildren(_ count: Int) -> (Store<DeckState>, [Store<CardState>]) {
        let deck = Store<DeckState>()
        deck.cards = (0..<count).map { Card.fresh("card \($0)") }
        return (deck, deck.state.$cards.map(cardStore))
    }

    @Test func appendingRemovingAndReorderingKeepEveryElementInSync() {
        let (deck, children) = deckWithChildren(3)
        let ids = deck.cards.map(\.id)

        deck.cards.append(Card.fresh("appended"))
        deck.cards.reverse()
        deck.cards.remove(at: 1)  // removes "card 2"... after the reverse: index 1 is "card 2"
        #expect(deck.cards.map(\.title) == ["appended", "card 1", "card 0"])

        // The children still write to their own elements, wherever they are now.
        children[0].card.title = "zero"
        children[1].card.title = "one"
        #expect(deck.cards.map(\.title) == ["appended", "one", "zero"])
        // The removed element's child keeps its entity, no longer in the deck.
        children[2].card.title = "two"
        #expect(!deck.cards.contains { $0.id == ids[2] })
        #expect(children[2].card.title == "two")
    }

    @Test func writingAnElementWritesOnlyItsEntity() {
        let (deck, children) = deckWithChildren(3)
        let heard = Recorder<Int>()
        for (index, child) in children.enumerated() {
            child.observe(\.card.title) { _ in heard.record(index) }
        }
        deck.cards[1].title = "changed"
        #expect(heard.values == [1])
        deck.state.$cards[2].value.title = "through its handle"
        #expect(heard.values == [1, 2])
        #expect(children[2].card.title == "through its handle")
    }

    @Test func aDeckHearsItsElementsChangeAsAChangeset() {
        let (deck, children) = deckWithChildren(4)
        let changesets = Recorder<Changeset<Card>>()
        deck.observeChanges(\.cards) { changesets.record($0) }

        children[2].card.title = "edited elsewhere"  // an update, from another store
        deck.cards.swapAt(0, 3)  // moves
        deck.cards.insert(Card.fresh("new"), at: 1)  // an insertion

        let values = changesets.values
        #expect(values.count == 3)
        #expect(values[0].updates.map(\.to) == [2])
        #expect(values[0].updates.first?.element.title == "edited elsewhere")
        #expect(!values[1].moves.isEmpty && values[1].updates.isEmpty)
        #expect(values[2].insertions.map(\.index) == [1])

        var mirror = (0..<4).map { index in index == 2 ? Card(id: children[2].card.id, title: "card 2") : children[index].card }
        for changeset in values { mirror = changeset.applied(to: mirror) }
        #expect(mirror == deck.cards)
    }

    @Test func duplicateIDsAreOneEntity() {
        let card = Card.fresh("first")
        var duplicate = card
        duplicate.title = "second"
        // Created with duplicates: the first value is the entity's initial value.
        var collection = RefCollection(wrappedValue: [card, duplicate])
        #expect(collection.wrappedValue.map(\.title) == ["first", "first"])
        #expect(collection.projectedValue[0] == collection.projectedValue[1])
        // Assigned with duplicates: the last one written wins, and both read it.
        collection.wrappedValue = [Card(id: card.id, title: "x"), Card(id: card.id, title: "y")]
        #expect(collection.wrappedValue.map(\.title) == ["y", "y"])
        // Writing one writes both.
        collection.wrappedValue[0].title = "z"
        #expect(collection.wrappedValue.map(\.title) == ["z", "z"])
    }

    @Test func appendingALiveIDJoinsItsEntity() {
        let card = Referred(Card.fresh("live"))
        let deck = Store<DeckState>()
        deck.cards.append(Card(id: card.id, title: "appended"))  // an assignment: written
        #expect(card.value.title == "appended")
        card.value.title = "written by the holder"
        #expect(deck.cards.first?.title == "written by the holder")
    }

    @Test func aChildCanHoldTheWholeCollection() {
        let (deck, _) = deckWithChildren(3)
        let child = Store<DeckState>()
        child.state.$cards = deck.state.$cards
        child.cards[0].title = "from the child"
        #expect(deck.cards[0].title == "from the child")
        // The order is each state's own.
        child.cards.reverse()
        #expect(deck.cards[0].title == "from the child")
        #expect(deck.state.$cards[id: deck.cards[1].id] == deck.state.$cards[1])
        #expect(deck.state.$cards[id: "missing"] == nil)
        let rebuilt = ReferredCollection(Array(deck.state.$cards))
        #expect(rebuilt == deck.state.$cards)
        #expect(RefCollection(rebuilt) == RefCollection(deck.state.$cards))
    }
}
