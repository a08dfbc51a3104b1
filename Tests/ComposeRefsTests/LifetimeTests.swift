import ComposeStore
import Testing

@testable import ComposeRefs

@Suite struct LifetimeTests {
    @Test func anEntityGoesAwayWithItsLastHolder() {
        let card = Card.fresh("held")
        weak var entry: RefEntry<Card>?
        var store: Store<CardState>? = Store<CardState>()
        do {
            let referred = Referred(card)
            entry = referred.entry
            store?.state.$card = referred
        }
        #expect(entry != nil)  // the store's state holds it
        #expect(RefRegistry<Card>.liveEntry(for: card.id) != nil)
        store = nil
        #expect(entry == nil)
        #expect(RefRegistry<Card>.liveEntry(for: card.id) == nil)
    }

    /// The last holder of an entity lets go while another thread makes a new entity with the same
    /// id (the old one can no longer be retained, so the lookup does not find it): the old
    /// entity's deinit then runs after the new one took its slot. Here that order is made
    /// directly, with an entity that never had the slot going away while a held one has it: the
    /// held one stays found, and a new holder of its id joins it rather than making a second one.
    @Test func anOlderEntityGoingAwayAfterANewOneTookItsIDLeavesTheNewOneFound() {
        let card = Card.fresh("taken over")
        let held = Referred(card)
        do {
            _ = RefEntry(value: card, registry: RefRegistry<Card>.shared)  // deinit: remove(ifStill:)
        }
        #expect(RefRegistry<Card>.liveEntry(for: card.id) === held.entry)
        let joined = Referred(card)
        #expect(joined.entry === held.entry)
        joined.value.title = "written through the second holder"
        #expect(held.value.title == "written through the second holder")
    }

    @Test func storesAndEntitiesDoNotKeepEachOtherAlive() {
        weak var weakStorage: StoreStorage<CardState>?
        let referred = Referred(Card.fresh())
        do {
            let store = cardStore(referred)
            weakStorage = store.storage
            store.observe(\.card.title) { _ in }
            #expect(referred.entry.listenerCount == 1)
        }
        #expect(weakStorage == nil)  // the entity does not keep the store alive
        #expect(referred.entry.listenerCount == 0)  // and forgot its listener
        referred.value.title = "nobody listens"
    }

    @Test func manyShortLivedRefsLeaveNothingBehind() {
        let before = RefRegistry<Card>.shared.count
        for index in 0..<100_000 {
            // Distinct ids, and the same id over and over.
            let distinct = Ref(wrappedValue: Card(id: "short-lived-\(index)", title: ""))
            let repeated = Ref(wrappedValue: Card(id: "short-lived-repeated", title: "\(index)"))
            #expect(repeated.wrappedValue.title == "\(index)" || index == 0)
            _ = distinct
        }
        #expect(RefRegistry<Card>.liveEntry(for: "short-lived-repeated") == nil)
        // Other tests running at once hold a handful of cards; none of these is left.
        #expect(RefRegistry<Card>.shared.count <= before + 64)
        #expect((0..<100_000).allSatisfy { RefRegistry<Card>.liveEntry(for: "short-lived-\($0)") == nil })
    }

    @Test func shortLivedStoresHoldingRefsLeaveNothingBehind() {
        let shared = Referred(Card.fresh())
        for index in 0..<10_000 {
            let store = Store<DeckState>()
            store.cards = [shared.value, Card(id: "short-lived-store-\(index)", title: "")]
            store.observe(\.cards) { _ in }
        }
        #expect(shared.entry.listenerCount == 0)
        #expect((0..<10_000).allSatisfy { RefRegistry<Card>.liveEntry(for: "short-lived-store-\($0)") == nil })
    }
}
