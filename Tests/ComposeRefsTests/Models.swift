import ComposeRefs
import ComposeStore
import Foundation

/// The tests' shared model. Each test uses ids of its own (``Card/fresh(_:)``): entities are
/// process-wide, and Swift Testing runs tests in parallel.
struct Card: Codable, Equatable, Identifiable, Sendable {
    var id: String
    var title: String
    var count = 0

    init(id: String, title: String = "", count: Int = 0) {
        self.id = id
        self.title = title
        self.count = count
    }

    /// A card with an id no other test uses.
    static func fresh(_ title: String = "") -> Card {
        Card(id: UUID().uuidString, title: title)
    }
}

/// A state holding one card.
struct CardState: AnyState, Codable {
    @Ref var card: Card
    var note = ""
}

/// A state holding a list of cards.
struct DeckState: AnyState, Codable {
    @RefCollection var cards: [Card]
    var name = ""
}

/// A store holding `referred`'s card.
func cardStore(_ referred: Referred<Card>) -> Store<CardState> {
    let store = Store<CardState>()
    store.state.$card = referred
    return store
}
