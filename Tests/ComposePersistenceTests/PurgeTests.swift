import Clocks
import ComposeEmitters
import ComposeStore
import ComposeTestSupport
import Foundation
import Testing

@testable import ComposePersistence

/// `purge()` removes the saves of its storage pending in the process too: a store released with
/// its last save pending, then a new store of the same storage purges; once that save has gone,
/// the data stays gone.
@Suite struct PurgePendingSaveTests {
    struct Settings: Codable, AnyState, Equatable {
        var theme = 0
    }

    @Test func aPurgeRemovesTheLastSaveOfAStoreReleasedJustBefore() async throws {
        let storage = TestPersistentStorage()
        do {
            let app = Store<Settings>(storage: storage, autosave: .coalescing(window: .seconds(60), clock: TestClock()))
            app.state.theme = 1
            try await app.persistence.flush()
            storage.holdWrites()
            app.state.theme = 2  // pending when the store goes
        }
        let next = Store<Settings>(storage: storage, autosave: .coalescing(window: .seconds(60), clock: TestClock()))
        let purged = Recorder<Bool>()
        startThread { purged.record((try? next.persistence.purge()) != nil) }
        await eventually { purged.count == 1 || PendingSaves.waitingRestores(of: storage.identity) == 1 }
        #expect(purged.count == 0, "the purge did not wait for the pending save")
        storage.releaseWrites()
        #expect(await purged.wait(forCount: 1))
        #expect(purged.values == [true])
        try await next.persistence.flush()
        #expect(storage.data == nil, "the purged data came back")
    }

    /// Another live store of the same file has a change gathered in its autosave window when the
    /// purge runs: the window's end saves nothing, as nothing changed since the purge; a change
    /// made after it is saved.
    @Test func aPurgeDropsWhatAnotherStoreGatheredInItsWindow() async throws {
        let directory = TemporaryDirectory()
        let clock = TestClock()
        let app = Store<Settings>(
            storage: FilePersistentStorage(key: "settings", directory: directory.url),
            autosave: .coalescing(window: .seconds(60), clock: clock))
        app.state.theme = 1  // saved at once, and opens the window
        try await app.persistence.flush()
        app.state.theme = 2  // gathered in the window
        let other = Store<Settings>(storage: FilePersistentStorage(key: "settings", directory: directory.url))
        try other.persistence.purge()
        let file = FilePersistentStorage(key: "settings", directory: directory.url)
        #expect(try file.read() == nil)
        await clock.advance(by: .seconds(61))  // the window closes
        try await app.persistence.flush()
        #expect(try file.read() == nil, "the purged data came back")
        app.state.theme = 3
        try await app.persistence.flush()
        #expect(try file.read() != nil)
    }

    /// Two stores of one storage each purge from their autosave error handler, their failing
    /// saves made to overlap: each handler runs on its store's save queue, and neither purge
    /// waits for the other's queue, so both return.
    @Test(.timeLimit(.minutes(5)))
    func twoStoresPurgingFromTheirErrorHandlersAtOnceBothReturn() async throws {
        let storage = OverlappingFailingStorage()
        let first = Store<Settings>(storage: storage, autosave: .coalescing(window: .seconds(60), clock: TestClock()))
        let second = Store<Settings>(storage: storage, autosave: .coalescing(window: .seconds(60), clock: TestClock()))
        let purged = Recorder<String>()
        let subscriptions = [
            first.persistence.errors += { _ in
                _ = try? first.persistence.purge()
                purged.record("first")
            },
            second.persistence.errors += { _ in
                _ = try? second.persistence.purge()
                purged.record("second")
            },
        ]
        first.state.theme = 1  // saved at once: fails
        second.state.theme = 1
        #expect(await purged.wait(forCount: 2), "purges that returned: \(purged.values)")
        for subscription in subscriptions { subscription.cancel() }
    }
}

/// A storage whose writes all fail; the first two wait (up to five seconds) until both have
/// begun, so two stores' saves are in flight at once.
private final class OverlappingFailingStorage: AnyPersistentStorage, @unchecked Sendable {  // State in `writes`.
    private let writes = LockedBox(0)
    var description: String { "overlapping, failing" }

    func write(_ data: Data) throws(PersistenceError) {
        let index = writes.mutate { count -> Int in
            count += 1
            return count
        }
        if index <= 2 {
            let deadline = ContinuousClock.now + .seconds(5)
            while writes.value < 2, ContinuousClock.now < deadline { usleep(1_000) }
        }
        throw .unwritable(location: "overlapping", reason: "disk full")
    }

    func read() throws(PersistenceError) -> Data? { nil }
    func delete() throws(PersistenceError) {}
    func moveAside(_ data: Data) throws(PersistenceError) -> String? { nil }
}
