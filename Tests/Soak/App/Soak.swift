import Compose
import ComposePersistence
import ComposeRefs
import ComposeTestSupport
import Foundation
import HeapStats

/// Drives ``AppRoot`` through random user actions, checking after every one that the app is
/// where a simple model of it says it should be, and measuring the heap.
///
/// Invariants checked after every action:
/// - the feed holds exactly the model's cards, in order; a detail screen shows the model's card,
///   whichever side wrote it last (refs stay synchronised both ways);
/// - the router shows the model's screen, and the host shows exactly that screen's components;
/// - each screen configuration has the same number of active observers every time it is shown
///   (none leak as screens come and go);
/// - live ref entities are exactly the ids the feed and the detail screen hold.
/// Every 100 actions, the autosaved stores are flushed and their saves restore to exactly the
/// current states.
public struct Soak {
    public struct Configuration: Sendable {
        public var actions = 100_000
        public var seed: UInt64 = 2026
        /// The action after which the heap is first measured: the baseline the end is compared with.
        public var baselineAction = 1_000
        /// How often (in actions) the autosaved stores are flushed and their saves checked.
        public var flushEvery = 100
        /// Flushes made before the first action, to fill the caches of libdispatch (see
        /// ``Soak/warmUp()``).
        public var warmUpFlushes = 10_000

        public init() {}
    }

    public struct Report: Sendable, CustomStringConvertible {
        public var actions = 0
        public var failures: [String] = []
        public var actionCounts: [String: Int] = [:]
        /// Heap in use (bytes) after ``Configuration/baselineAction`` actions, at the end, and the
        /// most seen in between (sampled every 1,000 actions); 0 where it cannot be measured.
        public var heapAtBaseline = 0
        public var heapAtEnd = 0
        public var heapPeak = 0
        public var saves = 0

        /// The end's heap relative to the baseline's: 0.02 is 2% more.
        public var heapGrowth: Double {
            heapAtBaseline == 0 ? 0 : Double(heapAtEnd - heapAtBaseline) / Double(heapAtBaseline)
        }

        public var description: String {
            let counts = actionCounts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            return """
                \(actions) actions (\(counts)), \(saves) autosaves checked
                heap in use: \(heapAtBaseline) bytes after the baseline, \(heapAtEnd) at the end \
                (\(String(format: "%+.2f", heapGrowth * 100))%), peak \(heapPeak)
                \(failures.isEmpty ? "every invariant held" : "\(failures.count) failures:\n" + failures.prefix(20).joined(separator: "\n"))
                """
        }
    }

    enum Screen: Hashable {
        case feed, detail, settings
    }

    /// What the app should show: the model the soak checks the app against.
    struct Model {
        var cards: [Card] = []
        var detail: Card?
        var screen = Screen.feed
        var settings = SettingsState()
        var nextID = 0
    }

    let configuration: Configuration
    let host: ComponentHost<AppRoot>
    let feedStorage = InMemoryPersistentStorage(name: "feed")
    let settingsStorage = InMemoryPersistentStorage(name: "settings")
    var model = Model()
    var report = Report()
    var generator: SplitMix64
    var observersByScreen: [Screen: Int] = [:]
    /// Set by ``check(after:)`` when the entity count differed right after an action.
    var entityCountToRecheck: String?

    /// Runs a soak with `configuration` and returns what happened.
    public static func run(_ configuration: Configuration, progress: (String) -> Void = { _ in }) async -> Report {
        var soak = Soak(configuration)
        return await soak.run(progress: progress)
    }

    init(_ configuration: Configuration) {
        self.configuration = configuration
        generator = SplitMix64(seed: configuration.seed)
        // A clock that never advances: autosave writes only when flushed, so the soak decides
        // when saves happen and checks each one.
        let autosave = Autosave.coalescing(window: .seconds(1), clock: TestClock())
        host = ComponentHost(
            AppRoot(feedStorage: feedStorage, settingsStorage: settingsStorage, autosave: autosave), label: "soak")
    }

    /// The feed holds between these numbers of cards. It starts full, so the high-water marks of
    /// everything sized by it (collections keep their capacity) are reached before the baseline.
    static let minimumCards = 60
    static let maximumCards = 120

    /// Fills the feed to ``maximumCards``.
    mutating func populate() {
        let cards = (0..<Self.maximumCards).map { Card(id: $0, title: "card \($0)") }
        host.root.feed.$state.mutate { $0.cards = cards }
        model.cards = cards
        model.nextID = cards.count
    }

    /// Runs the configured number of actions and returns what happened.
    mutating func run(progress: (String) -> Void = { _ in }) async -> Report {
        populate()
        await warmUp()
        for action in 1...configuration.actions {
            let name = act()
            report.actionCounts[name, default: 0] += 1
            report.actions = action
            check(after: name)
            if let action = entityCountToRecheck {
                entityCountToRecheck = nil
                await recheckEntityCount(after: action)
            }
            if action % configuration.flushEvery == 0 { await checkSaves() }
            if action == configuration.baselineAction { report.heapAtBaseline = heapInUse() }
            if action % 1_000 == 0 {
                let heap = heapInUse()
                report.heapPeak = max(report.heapPeak, heap)
                if action % 10_000 == 0 || action == configuration.baselineAction {
                    progress("\(action) actions, heap \(heap) bytes, \(report.failures.count) failures")
                }
            }
            if report.failures.count >= 20 { break }
        }
        await checkSaves()
        report.heapAtEnd = heapInUse()
        host.unmount()
        if host.activeObserverCount != 0 { fail("\(host.activeObserverCount) observers are still active after unmounting") }
        return report
    }

    /// Flushes the autosaved stores ``Configuration/warmUpFlushes`` times, before any action.
    ///
    /// A flush resumes its caller from the thread that ran the saves, a libdispatch worker:
    /// resuming enqueues the caller's task, which takes a continuation object (64 bytes) from that
    /// worker's cache, and the cooperative thread that runs the task frees it into its own cache.
    /// The cooperative threads' caches fill that way, one object per flush, up to libdispatch's
    /// limit, and then stay full: measured on this machine, the heap grew linearly for the first
    /// 7,000 or so flushes (360,000 actions) and not at all afterwards. That is the runtime's
    /// cache, not Compose's memory; filling it before the baseline keeps the soak's heap check
    /// about what Compose keeps.
    mutating func warmUp() async {
        for _ in 0..<configuration.warmUpFlushes {
            do {
                try await host.root.feed.$state.persistence.flush()
                try await host.root.settings.$state.persistence.flush()
            } catch {
                fail("flushing failed during warm-up: \(error)")
                return
            }
        }
    }

    func heapInUse() -> Int {
        Int(compose_heap_bytes_in_use())
    }

    mutating func fail(_ message: String) {
        report.failures.append("action \(report.actions): \(message)")
    }

    mutating func random(_ range: Range<Int>) -> Int {
        Int.random(in: range, using: &generator)
    }

    // MARK: Actions

    /// Performs one random action, on the app and on the model, and returns its name.
    mutating func act() -> String {
        let feed = host.root.feed
        switch random(0..<100) {
        case 0..<14 where model.cards.count < Self.maximumCards, 14..<20 where model.cards.count <= Self.minimumCards:
            let card = Card(id: model.nextID, title: "card \(model.nextID)")
            model.nextID += 1
            let index = random(0..<model.cards.count + 1)
            feed.$state.mutate { $0.cards.insert(card, at: index) }
            model.cards.insert(card, at: index)
            return "add"
        case 0..<20 where model.cards.count > Self.minimumCards:
            let index = random(0..<model.cards.count)
            feed.$state.mutate { _ = $0.cards.remove(at: index) }
            model.cards.remove(at: index)
            return "remove"
        case 20..<28 where model.cards.count > 1:
            let from = random(0..<model.cards.count)
            let to = random(0..<model.cards.count)
            feed.$state.mutate { $0.cards.insert($0.cards.remove(at: from), at: to) }
            model.cards.insert(model.cards.remove(at: from), at: to)
            return "move"
        case 28..<38 where !model.cards.isEmpty:
            let index = random(0..<model.cards.count)
            let title = "renamed \(random(0..<1_000))"
            feed.$state.mutate { $0.cards[index].title = title }
            model.cards[index].title = title
            if model.detail?.id == model.cards[index].id { model.detail?.title = title }
            return "rename in feed"
        case 38..<50 where model.screen == .feed && !model.cards.isEmpty:
            let index = random(0..<model.cards.count)
            feed.open.send(index)
            model.detail = model.cards[index]
            model.screen = .detail
            return "open detail"
        case 50..<64 where model.screen == .detail:
            guard let detail = feed.detail.component else {
                fail("the detail screen is not created")
                return "like"
            }
            if random(0..<3) == 0 {
                let title = "edited \(random(0..<1_000))"
                detail.rename.send(title)
                updateDetail { $0.title = title }
                return "rename in detail"
            }
            detail.like.send()
            updateDetail { $0.likes += 1 }
            return "like"
        case 64..<72 where model.screen == .detail:
            feed.detail.component?.close.send()
            model.detail = nil
            model.screen = .feed
            return "close detail"
        case 72..<78 where model.screen == .feed:
            host.root.openSettings.send()
            model.screen = .settings
            return "open settings"
        case 78..<84 where model.screen == .settings:
            host.root.settings.back.send()
            model.screen = .feed
            return "back from settings"
        case 84..<92:
            host.root.settings.toggle.send()
            model.settings.notifications.toggle()
            model.settings.theme = model.settings.notifications ? "light" : "dark"
            model.settings.changes += 1
            return "toggle setting"
        case 92..<95 where model.screen != .feed:
            _ = host.root.router.popToRoot()
            model.detail = nil
            model.screen = .feed
            return "pop to root"
        default:
            // A refused navigation: popping the root changes nothing (and is reported).
            if model.screen == .feed {
                let (popped, found) = recordingDiagnostics { host.root.router.pop() }
                if popped || found.isEmpty { fail("popping the root was not refused and reported") }
                return "pop the root"
            }
            return "idle"
        }
    }

    /// Applies a detail edit to the model: the detail's card, and the feed's card of that id.
    mutating func updateDetail(_ edit: (inout Card) -> Void) {
        guard var card = model.detail else { return }
        edit(&card)
        model.detail = card
        for index in model.cards.indices where model.cards[index].id == card.id { model.cards[index] = card }
    }

    // MARK: Invariants

    mutating func check(after action: String) {
        let feed = host.root.feed
        let cards = feed.state.cards
        if cards != model.cards {
            fail(
                "after \(action), the feed holds \(cards.count) cards, the model \(model.cards.count); first difference at \(zip(cards, model.cards).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(cards.count, model.cards.count))"
            )
        }
        let shown = feed.detail.component?.state.card
        if shown != model.detail {
            fail("after \(action), the detail shows \(String(describing: shown)), the model \(String(describing: model.detail))")
        }
        let expectedIDs: [String]
        switch model.screen {
        case .feed: expectedIDs = ["AppRoot", "AppRoot/feed"]
        case .detail: expectedIDs = ["AppRoot", "AppRoot/feed/detail"]
        case .settings: expectedIDs = ["AppRoot", "AppRoot/settings"]
        }
        if host.visibleIDs != expectedIDs || host.root.router.depth != (model.screen == .feed ? 1 : 2) {
            fail(
                "after \(action), the host shows \(host.visibleIDs) at depth \(host.root.router.depth), the model \(model.screen)"
            )
        }
        let observers = host.activeObserverCount
        if let seen = observersByScreen[model.screen] {
            if seen != observers { fail("after \(action), \(observers) active observers on \(model.screen), \(seen) before") }
        } else {
            observersByScreen[model.screen] = observers
        }
        if liveCardsMismatch() != nil { entityCountToRecheck = action }
        if host.root.settings.state != model.settings {
            fail("after \(action), settings are \(host.root.settings.state), the model \(model.settings)")
        }
    }

    /// The live card entities and the ids the model holds, if they differ.
    func liveCardsMismatch() -> (live: Int, ids: Int)? {
        let ids = Set(model.cards.map(\.id) + (model.detail.map { [$0.id] } ?? []))
        let live = RefDiagnostics.liveEntityCount(of: Card.self)
        return live == ids.count ? nil : (live, ids.count)
    }

    /// A save running in the background holds a copy of the state it writes, and with it the
    /// entities of cards removed just before: they go when the save is done. So a count that
    /// differs right after an action is checked again once the saves in flight are done; only a
    /// difference that outlives them is a failure.
    mutating func recheckEntityCount(after action: String) async {
        do {
            try await host.root.feed.$state.persistence.flush()
            try await host.root.settings.$state.persistence.flush()
        } catch {
            fail("flushing failed: \(error)")
        }
        if let (live, ids) = liveCardsMismatch() {
            fail("after \(action), \(live) live card entities for \(ids) ids once the saves in flight were done")
        }
    }

    /// Flushes the autosaved stores and checks that their saves restore to the current states.
    mutating func checkSaves() async {
        do {
            try await host.root.feed.$state.persistence.flush()
            try await host.root.settings.$state.persistence.flush()
            // Fresh stores restore each save (`restore()` is false while nothing was saved).
            let feed = Store<FeedState>(storage: InMemoryPersistentStorage(data: feedStorage.data))
            if try feed.persistence.restore(), feed.state.cards != host.root.feed.state.cards {
                fail(
                    "the feed's save restores \(feed.state.cards.count) cards, not the \(host.root.feed.state.cards.count) shown")
            }
            let settings = Store<SettingsState>(storage: InMemoryPersistentStorage(data: settingsStorage.data))
            if try settings.persistence.restore(), settings.state != host.root.settings.state {
                fail("the settings' save restores \(settings.state), not \(host.root.settings.state)")
            }
            report.saves += 1
        } catch {
            fail("saving or restoring failed: \(error)")
        }
    }
}
