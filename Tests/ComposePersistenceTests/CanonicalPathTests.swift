import Clocks
import ComposeEmitters
import ComposeStore
import ComposeTestSupport
import Foundation
import Testing

@testable import ComposePersistence

/// A file storage's identity is its file's canonical path: one key in one directory is one save
/// however the directory is spelled, before the directory exists as after, and a restore through
/// any spelling waits for the pending saves of the file.
@Suite struct CanonicalPathTests {
    struct Settings: Codable, AnyState, Equatable {
        var theme = 0
    }

    /// `<directory>/sub`, a link to it in another directory, and the link's `..`: the file system
    /// follows the link, then goes up, so `link/..` is `<directory>`.
    @Test func aLinkFollowedByDotDotIsTheLinkTargetsParent() throws {
        let directory = TemporaryDirectory()
        let sub = directory.url.appendingPathComponent("sub", isDirectory: true)
        try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
        let link = try makeLink(to: sub)
        let spelled = URL(fileURLWithPath: link.link.path + "/..", isDirectory: true)
        let direct = FilePersistentStorage(key: "settings", directory: directory.url)
        let other = FilePersistentStorage(key: "settings", directory: spelled)
        try direct.write(Data("{}".utf8))
        #expect(try other.read() == Data("{}".utf8))  // one file
        #expect(other.identity == direct.identity)
    }

    /// A directory a storage's first save will create, spelled through a link: the identity is
    /// the one it has once the directory exists.
    @Test func aDirectoryNotCreatedYetHasTheIdentityItWillHave() throws {
        let base = TemporaryDirectory()
        try FileManager.default.createDirectory(at: base.url, withIntermediateDirectories: true)
        let link = try makeLink(to: base.url)
        let direct = FilePersistentStorage(key: "settings", directory: base.url.appendingPathComponent("new/../new/deeper"))
        let other = FilePersistentStorage(key: "settings", directory: link.link.appendingPathComponent("new/deeper"))
        let before = other.identity
        #expect(before == direct.identity)
        try direct.write(Data("{}".utf8))
        #expect(try other.read() == Data("{}".utf8))
        #expect(other.identity == before)
    }

    /// Hostile input: a directory inside a loop of links. The identity is computed, and saving
    /// and restoring end (with an error or not), without hanging.
    @Test func aDirectoryInALoopOfLinksEnds() async throws {
        let base = TemporaryDirectory()
        try FileManager.default.createDirectory(at: base.url, withIntermediateDirectories: true)
        let a = base.url.appendingPathComponent("a")
        let b = base.url.appendingPathComponent("b")
        try FileManager.default.createSymbolicLink(atPath: a.path, withDestinationPath: b.path)
        try FileManager.default.createSymbolicLink(atPath: b.path, withDestinationPath: a.path)
        let done = Recorder<String>()
        startThread {
            let storage = FilePersistentStorage(key: "settings", directory: a.appendingPathComponent("x"))
            done.record("identity \(storage.identity.map { "\($0)" } ?? "nil")")
            done.record((try? storage.write(Data("{}".utf8))) == nil ? "write threw" : "written")
            done.record((try? storage.read()) == nil ? "read threw" : "read")
        }
        #expect(await done.wait(forCount: 3, timeout: .seconds(10)), "\(done.values)")
        #expect(done.values.dropFirst() == ["write threw", "read threw"])
    }

    /// A store made on a directory spelled through a link before its first save created the
    /// directory, released with its last save pending (held by the directory's lock): a new store
    /// on the same spelling waits for that save and reads it.
    @Test func aRestoreWaitsForThePendingSaveOfAStoreMadeBeforeItsDirectoryExisted() async throws {
        let base = TemporaryDirectory()
        try FileManager.default.createDirectory(at: base.url, withIntermediateDirectories: true)
        let link = try makeLink(to: base.url)
        let spelled = link.link.appendingPathComponent("new", isDirectory: true)
        let lock = DirectoryLockHolder(try created(base.url.appendingPathComponent("new")).path)
        do {
            let app = Store<Settings>(
                storage: FilePersistentStorage(key: "settings", directory: spelled),
                autosave: .coalescing(window: .seconds(60), clock: TestClock()))
            app.state.theme = 1  // saved at once
            try await app.persistence.flush()
            lock.hold()
            app.state.theme = 2  // pending when the store goes
        }
        let storage = FilePersistentStorage(key: "settings", directory: spelled)
        let next = Store<Settings>(storage: storage)
        let result = Recorder<Bool>()
        startThread { result.record((try? next.persistence.restore()) ?? false) }
        await eventually { result.count == 1 || PendingSaves.waitingRestores(of: storage.identity) == 1 }
        #expect(result.count == 0, "the restore did not wait for the pending save")
        lock.release()
        #expect(await result.wait(forCount: 1))
        #expect(next.state.theme == 2)
    }

    // MARK: Helpers

    /// A symbolic link to `target` in a temporary directory of its own (kept alive by the result).
    private func makeLink(to target: URL) throws -> (link: URL, directory: TemporaryDirectory) {
        let links = TemporaryDirectory()
        try FileManager.default.createDirectory(at: links.url, withIntermediateDirectories: true)
        let link = links.url.appendingPathComponent("link")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
        return (link, links)
    }

    private func created(_ url: URL) throws -> URL {
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
