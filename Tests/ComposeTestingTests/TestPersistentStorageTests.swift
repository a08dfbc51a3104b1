import ComposePersistence
import ComposeStore
import ComposeTestSupport
import ComposeTesting
import Foundation
import Testing

@Suite struct TestPersistentStorageTests {
    struct Settings: AnyState, Codable {
        var theme = "light"
    }

    @Test func failsTheNextSaveOrRestoreOnDemand() throws {
        let storage = TestPersistentStorage()
        let store = Store<Settings>(storage: storage)
        store.theme = "dark"

        storage.failNextWrite()
        #expect(throws: PersistenceError.unwritable(location: "test storage", reason: "a failure injected by the test")) {
            try store.persistence.save()
        }
        try store.persistence.save()  // only the next one failed
        #expect(storage.writes.count == 1)

        storage.failNextRead()
        #expect(throws: PersistenceError.self) { try store.persistence.restore() }
        store.theme = "light"
        #expect(try store.persistence.restore())
        #expect(store.theme == "dark")
    }

    @Test func corruptDataIsSetAsideAndTheStateKept() throws {
        let storage = TestPersistentStorage()
        let store = Store<Settings>(storage: storage)
        store.theme = "dark"
        storage.holdCorruptData()
        let error = #expect(throws: PersistenceError.self) { try store.persistence.restore() }
        guard case .corrupt = error else {
            Issue.record("expected a corrupt save, got \(String(describing: error))")
            return
        }
        #expect(store.theme == "dark")
        #expect(storage.movedAside.count == 1)
    }

    @Test func autosaveErrorsArriveOnTheErrorEmitter() async {
        let clock = TestClock()
        let storage = TestPersistentStorage()
        let store = Store<Settings>(storage: storage, autosave: .coalescing(window: .seconds(1), clock: clock))
        let errors = store.persistence.errors.record()
        storage.failNext(.write, times: 2)
        store.theme = "dark"
        await errors.wait(forCount: 1)
        #expect(storage.writes.isEmpty)
    }

    /// A held save waits, on its own thread, until the test lets it go; saves after the release
    /// go at once.
    @Test(.timeLimit(.minutes(5)))
    func aHeldSaveWaitsUntilTheTestLetsItGo() async throws {
        let storage = TestPersistentStorage()
        let store = Store<Settings>(storage: storage)
        storage.holdWrites()
        let saved = Recorder<Bool>()
        startThread { saved.record((try? store.persistence.save()) != nil) }
        #expect(await eventually { storage.heldWrites == 1 })
        #expect(storage.writes.isEmpty)
        #expect(saved.count == 0)  // cannot have returned while held
        storage.releaseWrites()
        #expect(await saved.wait(forCount: 1))
        #expect(saved.values == [true])
        #expect(storage.writes.count == 1)
        #expect(storage.heldWrites == 0)
        try store.persistence.save()
        #expect(storage.writes.count == 2)
    }
}
