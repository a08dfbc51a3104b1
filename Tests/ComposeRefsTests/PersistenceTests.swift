import ComposePersistence
import ComposeStore
import ComposeTestSupport
import Foundation
import Testing

@testable import ComposeRefs

@Suite struct PersistenceTests {
    @Test func aStateWithRefsPersistsTheValues() throws {
        let storage = InMemoryPersistentStorage()
        let card = Card.fresh("saved")
        do {
            let store = Store<DeckState>(storage: storage)
            store.cards = [card, Card.fresh("second")]
            store.name = "deck"
            try store.persistence.save()
        }
        let json = String(decoding: storage.data ?? Data(), as: UTF8.self)
        #expect(json.contains("\"saved\"") && json.contains("\"second\""))
        #expect(RefRegistry<Card>.liveEntry(for: card.id) == nil)  // nothing holds the entity now

        let restored = Store<DeckState>(storage: storage)
        #expect(try restored.persistence.restore())
        #expect(restored.cards.map(\.title) == ["saved", "second"])
        #expect(restored.name == "deck")
    }

    @Test func aRestoredRefTakesPartInSynchronisationAgain() throws {
        let storage = InMemoryPersistentStorage()
        let card = Card.fresh("before")
        do {
            let store = Store<CardState>(storage: storage)
            store.state.$card = Referred(card)
            try store.persistence.save()
        }
        let restored = Store<CardState>(storage: storage)
        #expect(try restored.persistence.restore())

        // Another component joins the restored entity, and the two stay in sync both ways.
        let other = cardStore(restored.state.$card)
        let heardByRestored = Recorder<String>()
        restored.observe(\.card.title) { heardByRestored.record($0) }
        other.card.title = "written by the other"
        #expect(restored.card.title == "written by the other")
        #expect(heardByRestored.values == ["written by the other"])
        restored.card.title = "written by the restored"
        #expect(other.card.title == "written by the restored")
    }

    @Test func restoringIntoALiveEntityWritesThePersistedValue() throws {
        let storage = InMemoryPersistentStorage()
        let live = Referred(Card.fresh("persisted"))
        let store = Store<CardState>(storage: storage)
        store.state.$card = live
        try store.persistence.save()
        live.value.title = "changed since"

        let heard = Recorder<String>()
        store.observe(\.card.title) { heard.record($0) }
        #expect(try store.persistence.restore())
        #expect(live.value.title == "persisted")  // restoring is a write: last write wins
        #expect(heard.values == ["persisted"])
    }

    @Test func autosaveHearsWritesFromOtherStores() async throws {
        let storage = InMemoryPersistentStorage()
        let referred = Referred(Card.fresh("first"))
        let saved = Store<CardState>(storage: storage, autosave: .coalescing(window: .seconds(60)))
        saved.state.$card = referred
        try await saved.persistence.flush()
        #expect(storage.writeCount == 1)
        let other = cardStore(referred)
        other.card.title = "written elsewhere"
        try await saved.persistence.flush()
        #expect(storage.writeCount == 2)  // the write in another store made a save pending
        #expect(String(decoding: storage.data ?? Data(), as: UTF8.self).contains("written elsewhere"))
    }

    @Test func anEmptyRefEncodesAsNull() throws {
        let data = try JSONEncoder().encode(CardState())
        #expect(String(decoding: data, as: UTF8.self).contains("\"card\":null"))
        let decoded = try JSONDecoder().decode(CardState.self, from: data)
        #expect(decoded == CardState())  // empty refs are equal
    }
}
