import Clocks
import ComposeEmitters
import ComposeStore
import ComposeTestSupport
import Foundation
import Testing

@testable import ComposePersistence

/// A restore of a storage waits for the automatic saves of that storage pending in the process:
/// an app released without `flush()` and a new app restoring at once on the same key read the
/// released app's last save. Each test holds that save back (a held `TestPersistentStorage`, or
/// the directory's lock for a file), so the restore starts while it is pending, every time.
@Suite struct PendingSaveTests {
    struct Settings: Codable, AnyState {
        var theme = 0
        var fontSize = 12
    }

    /// Before the fix, the new store read theme 1, and its own autosave then wrote theme 1 over
    /// the released store's theme 2.
    @Test func aRestoreReadsTheLastSaveOfAStoreReleasedJustBefore() async throws {
        let storage = TestPersistentStorage()
        try await releaseAStoreWithItsLastSavePending(in: storage, hold: storage.holdWrites)
        let next = Store<Settings>(storage: storage, autosave: .coalescing(window: .seconds(60), clock: TestClock()))
        let restore = await restoreOnAThread(next, waitingFor: storage.identity)
        #expect(restore.waited)
        storage.releaseWrites()
        #expect(await restore.result.wait(forCount: 1))
        #expect(restore.result.values == [true])
        #expect(next.state.theme == 2)

        next.state.fontSize = 14  // the new app's own save builds on the newest one
        try await next.persistence.flush()
        #expect(try saved(in: storage) == Settings(theme: 2, fontSize: 14))
    }

    /// How the restoring store's storage spells the directory the released store saved to.
    enum Spelling: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case same
        case symbolicLink
        case doubledSlash
        case relative

        var testDescription: String { rawValue }

        func url(for directory: URL, linkAt link: URL) throws -> URL {
            switch self {
            case .same:
                return directory
            case .symbolicLink:
                try FileManager.default.createSymbolicLink(at: link, withDestinationURL: directory)
                return link
            case .doubledSlash:
                return URL(fileURLWithPath: directory.deletingLastPathComponent().path + "//" + directory.lastPathComponent)
            case .relative:
                return spelledRelativeToCurrentDirectory(directory)
            }
        }
    }

    /// The same with a file, the restoring store's storage spelling the directory its own way
    /// (one file all the same): the released store's last save waits for the directory's lock,
    /// which the test holds, as another process's purge or corrupt-save check would.
    @Test(arguments: Spelling.allCases)
    func aFileRestoreReadsTheLastSaveOfAStoreReleasedJustBefore(_ spelling: Spelling) async throws {
        let directory = TemporaryDirectory()
        let storage = FilePersistentStorage(key: "settings", directory: directory.url)
        try FileManager.default.createDirectory(at: directory.url, withIntermediateDirectories: true)
        let link = TemporaryDirectory()
        let spelled = try spelling.url(for: directory.url, linkAt: link.url)
        let lock = DirectoryLockHolder(directory.path)
        try await releaseAStoreWithItsLastSavePending(in: storage, hold: lock.hold)
        let next = Store<Settings>(storage: FilePersistentStorage(key: "settings", directory: spelled))
        #expect(next.persistence.storage.identity == storage.identity)
        let restore = await restoreOnAThread(next, waitingFor: storage.identity)
        #expect(restore.waited)
        lock.release()
        #expect(await restore.result.wait(forCount: 1))
        #expect(next.state.theme == 2)
    }

    /// The released store's storage was made for a directory spelled through a link that did
    /// not exist yet; the link is made (to the directory another store restores from) before its
    /// saves. The identity each save is pending under is the directory's as it is then: the
    /// restore waits for the last one.
    @Test func aRestoreWaitsForASaveMadeThroughALinkCreatedAfterItsStore() async throws {
        let base = TemporaryDirectory()
        let target = base.url.appendingPathComponent("target", isDirectory: true)
        let data = target.appendingPathComponent("data", isDirectory: true)
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        let later = base.url.appendingPathComponent("later", isDirectory: true)
        let lock = DirectoryLockHolder(data.path)
        try await releaseAStoreWithItsLastSavePending(
            in: FilePersistentStorage(key: "settings", directory: later.appendingPathComponent("data", isDirectory: true)),
            // The data moves: `later` becomes a link to `target`.
            beforeSaving: { try FileManager.default.createSymbolicLink(at: later, withDestinationURL: target) },
            hold: lock.hold)
        let storage = FilePersistentStorage(key: "settings", directory: data)
        let next = Store<Settings>(storage: storage)
        let restore = await restoreOnAThread(next, waitingFor: storage.identity)
        #expect(restore.waited)
        lock.release()
        #expect(await restore.result.wait(forCount: 1))
        #expect(next.state.theme == 2)
    }

    /// The released store's last save fails: the restore returns all the same, with the save
    /// before it, and the failure is reported on the released store's `errors`.
    @Test func aPendingSaveThatFailsEndsTheWaitAndIsReported() async throws {
        let storage = TestPersistentStorage()
        let errors = Recorder<PersistenceError>()
        let subscription = try await releaseAStoreWithItsLastSavePending(
            in: storage,
            hold: {
                storage.holdWrites()
                storage.failNextWrite()
            }, errors: errors)
        let next = Store<Settings>(storage: storage)
        let restore = await restoreOnAThread(next, waitingFor: storage.identity)
        #expect(restore.waited)
        storage.releaseWrites()
        #expect(await restore.result.wait(forCount: 1))
        #expect(next.state.theme == 1)
        #expect(await errors.wait(forCount: 1))
        subscription.cancel()
    }

    /// An error handler runs on the thread that saves, with the released store's last save
    /// queued behind it: a restore made there does not wait for that save (it would wait for
    /// itself) and reads what is saved now.
    @Test(.timeLimit(.minutes(5)))
    func aRestoreFromAnAutosaveErrorHandlerDoesNotWait() async throws {
        let storage = TestPersistentStorage()
        let restored = Recorder<Int>()
        let subscription: EmitterSubscription
        do {
            let app = Store<Settings>(storage: storage, autosave: .coalescing(window: .seconds(60), clock: TestClock()))
            subscription =
                app.persistence.errors += { _ in
                    let other = Store<Settings>(storage: storage)
                    _ = try? other.persistence.restore()
                    restored.record(other.state.theme)
                }
            storage.holdWrites()
            storage.failNextWrite()
            app.state.theme = 1  // saved at once: held, then fails
            #expect(await eventually { storage.heldWrites == 1 })
            app.state.theme = 2  // the last save, queued behind the failing one when the store goes
        }
        storage.releaseWrites()
        try #require(await restored.wait(forCount: 1))  // otherwise the handler is stuck, and so is the last save
        #expect(restored.values == [0])
        let next = Store<Settings>(storage: storage)
        #expect(try next.persistence.restore())  // waits for the last save, queued meanwhile
        #expect(next.state.theme == 2)
        subscription.cancel()
    }

    @Test func identitiesNameTheSave() {
        let directory = URL(fileURLWithPath: "/tmp/compose-identity", isDirectory: true)
        let file = FilePersistentStorage(key: "a", directory: directory)
        #expect(file.identity == FilePersistentStorage(key: "a", directory: directory.appendingPathComponent("x/..")).identity)
        #expect(file.identity != FilePersistentStorage(key: "b", directory: directory).identity)
        #expect(file.identity != FilePersistentStorage(key: "a", directory: directory.appendingPathComponent("x")).identity)
        let test = TestPersistentStorage()
        #expect(test.identity == AnyHashable(ObjectIdentifier(test)))
        #expect(test.identity != TestPersistentStorage().identity)
        let memory = InMemoryPersistentStorage()
        #expect(memory.identity == AnyHashable(ObjectIdentifier(memory)))
        #expect(EmptyPersistentStorage().identity == nil)
    }

    // MARK: Helpers

    /// Makes a store of `storage` and calls `beforeSaving`; saves theme 1, then calls `hold`
    /// (which holds the storage's saves back), changes the
    /// theme to 2 within the autosave window and releases the store: its last save (theme 2) is
    /// pending when this returns. Returns the subscription of `errors` to the store's errors.
    @discardableResult
    private func releaseAStoreWithItsLastSavePending(
        in storage: some AnyPersistentStorage,
        beforeSaving: () throws -> Void = {},
        hold: () -> Void,
        errors: Recorder<PersistenceError> = Recorder()
    ) async throws -> EmitterSubscription {
        let app = Store<Settings>(storage: storage, autosave: .coalescing(window: .seconds(60), clock: TestClock()))
        try beforeSaving()
        let subscription = app.persistence.errors += errors.record
        app.state.theme = 1  // saved at once
        try await app.persistence.flush()
        hold()
        app.state.theme = 2  // gathered until the window closes, or the store goes
        return subscription
    }

    /// Restores `store` on a thread of its own, and returns once the restore waits for a pending
    /// save of `identity`, or has returned (`result` then holds whether it found a save).
    private func restoreOnAThread(
        _ store: Store<Settings>, waitingFor identity: AnyHashable?
    ) async -> (waited: Bool, result: Recorder<Bool>) {
        let result = Recorder<Bool>()
        startThread { result.record((try? store.persistence.restore()) ?? false) }
        await eventually { result.count == 1 || PendingSaves.waitingRestores(of: identity) == 1 }
        // A restore that waits cannot return before the save goes: the answer does not change.
        return (result.count == 0, result)
    }

    private func saved(in storage: TestPersistentStorage) throws -> Settings {
        let reader = Store<Settings>(storage: TestPersistentStorage(data: storage.data))
        try reader.persistence.restore()
        return reader.state
    }
}

extension PendingSaveTests.Settings: Equatable {}
