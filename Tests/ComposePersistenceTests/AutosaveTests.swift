import Clocks
import ComposeEmitters
import ComposePersistence
import ComposeStore
import ComposeTestSupport
import Foundation
import Testing

@Suite struct AutosaveTests {
    struct State: Codable, AnyState {
        var value = 0
    }

    @Test func theFirstChangeSavesAtOnceAndABurstGivesOneMoreSave() async throws {
        let clock = TestClock()
        let storage = InMemoryPersistentStorage()
        let store = Store<State>(storage: storage, autosave: .coalescing(window: .seconds(1), clock: clock))

        store.state.value = 1
        try await store.persistence.flush()  // waits for the save already queued
        #expect(storage.writeCount == 1)

        for value in 2...1_000 { store.state.value = value }
        await clock.settle(by: .milliseconds(500))
        #expect(storage.writeCount == 1)  // gathered, not yet written
        await clock.advance(by: .milliseconds(500)) { storage.writeCount == 2 }
        try await store.persistence.flush()
        #expect(storage.writeCount == 2)
        #expect(try restored(from: storage).value == 1_000)

        // Quiet again after an empty window: the next change saves at once.
        await clock.settle(by: .seconds(2))
        store.state.value = 0
        try await store.persistence.flush()
        #expect(storage.writeCount == 3)
    }

    @Test func flushSavesWhatIsPendingWithoutWaitingForTheWindow() async throws {
        let clock = TestClock()
        let storage = InMemoryPersistentStorage()
        let store = Store<State>(storage: storage, autosave: .coalescing(window: .seconds(60), clock: clock))
        store.state.value = 1
        store.state.value = 2
        try await store.persistence.flush()
        #expect(try restored(from: storage).value == 2)
        #expect(storage.writeCount == 2)
    }

    @Test func autosaveErrorsArriveOnTheErrorEmitterAndFromFlush() async throws {
        let storage = FailingStorage()
        let store = Store<State>(storage: storage, autosave: .coalescing(window: .seconds(60), clock: TestClock()))
        let errors = Recorder<PersistenceError>()
        store.persistence.errors += errors.record
        store.state.value = 1
        await #expect(throws: PersistenceError.self) { try await store.persistence.flush() }
        #expect(errors.values == [.unwritable(location: "failing", reason: "disk full")])
    }

    @Test func aChangeMadeRightBeforeANormalExitIsSaved() throws {
        // The child changes the state twice under a one-minute window and exits at once: the
        // second change is saved by the exit handler.
        let directory = TemporaryDirectory()
        let result = try ChildProcess.run(["autosave-exit", directory.path, "exit"])
        #expect(result == 0)
        let store = Store<Payload>(storage: FilePersistentStorage(key: "exit", directory: directory.url))
        #expect(try store.persistence.restore())
        #expect(store.state.marker == "second")
    }

    private func restored(from storage: InMemoryPersistentStorage) throws -> State {
        let store = Store<State>(storage: storage)
        try store.persistence.restore()
        return store.state
    }
}

/// A storage that fails every write.
final class FailingStorage: AnyPersistentStorage {
    func write(_ data: Data) throws(PersistenceError) {
        throw .unwritable(location: "failing", reason: "disk full")
    }

    func read() throws(PersistenceError) -> Data? { nil }
    func delete() throws(PersistenceError) {}
    func moveAside() throws(PersistenceError) -> String? { nil }
    var description: String { "failing" }
}
