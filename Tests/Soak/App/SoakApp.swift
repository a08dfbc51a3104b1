// The app the soak drives: a feed of cards shared by id with detail screens (refs), a settings
// screen, two routers, and two stores saved automatically (autosave).
//
//   AppRoot (router: feed | settings)
//   ├── FeedComponent (@Store with autosave, @RefCollection of cards; routes to its detail)
//   │   └── DetailComponent, dynamic (@Store with a @Ref to one card)
//   └── SettingsComponent (@Store with autosave)

import Compose
import ComposePersistence
import ComposeRefs
import Foundation

/// A card of the feed, shared by id between the feed and a detail screen.
public struct Card: Codable, Equatable, Identifiable, Sendable {
    public var id: Int
    public var title: String
    public var likes = 0

    public init(id: Int, title: String, likes: Int = 0) {
        self.id = id
        self.title = title
        self.likes = likes
    }
}

public struct FeedState: AnyState, Codable {
    @RefCollection public var cards: [Card] = []
    public var filter = ""

    public init() {}
}

public struct DetailState: AnyState, Codable {
    @Ref public var card = Card(id: -1, title: "")
    public var edits = 0

    public init() {}
}

public struct SettingsState: AnyState, Codable {
    public var notifications = true
    public var theme = "light"
    public var changes = 0

    public init() {}
}

public struct DetailComponent: Component, Sendable {
    @Store public var state: DetailState
    public let like = SignalEmitter()
    public let rename = ValueEmitter<String>()
    public let close = SignalEmitter()
    @EnclosingRouter var router

    public init(card: Referred<Card>) {
        var state = DetailState()
        state.$card = card
        _state = Store(wrappedValue: state, label: "detail")
    }

    public var observers: Void {
        like += {
            $state.mutate { state in
                state.card.likes += 1
                state.edits += 1
            }
        }
        rename += { title in
            $state.mutate { state in
                state.card.title = title
                state.edits += 1
            }
        }
        close += { router.pop() }
    }
}

public struct FeedComponent: Component, Sendable {
    @Store public var state: FeedState
    public let detail = DynamicComponent<DetailComponent>()
    /// Opens the card at an index in a detail screen.
    public let open = ValueEmitter<Int>()
    @EnclosingRouter var router

    public init(storage: InMemoryPersistentStorage, autosave: Autosave) {
        _state = Store(wrappedValue: FeedState(), storage: storage, autosave: autosave, label: "feed")
    }

    public var observers: Void {
        open += { index in
            guard let referred = $state.cards.indices.contains(index) ? state.$cards[index] : nil else { return }
            detail.create(DetailComponent(card: referred))
            router.push(\Self.detail)
        }
    }
}

public struct SettingsComponent: Component, Sendable {
    @Store public var state: SettingsState
    public let toggle = SignalEmitter()
    public let back = SignalEmitter()
    @EnclosingRouter var router

    public init(storage: InMemoryPersistentStorage, autosave: Autosave) {
        _state = Store(wrappedValue: SettingsState(), storage: storage, autosave: autosave, label: "settings")
    }

    public var observers: Void {
        toggle += {
            $state.mutate { state in
                state.notifications.toggle()
                state.theme = state.notifications ? "light" : "dark"
                state.changes += 1
            }
        }
        back += { router.pop() }
    }
}

public struct AppRoot: RouterComponent, Sendable {
    public let feed: FeedComponent
    public let settings: SettingsComponent
    public let router = Router(start: \Self.feed)
    public let openSettings = SignalEmitter()

    public init(feedStorage: InMemoryPersistentStorage, settingsStorage: InMemoryPersistentStorage, autosave: Autosave) {
        feed = FeedComponent(storage: feedStorage, autosave: autosave)
        settings = SettingsComponent(storage: settingsStorage, autosave: autosave)
    }

    public var observers: Void {
        openSettings += { router.push(\Self.settings) }
    }
}
