import ComposeStore
import ComposeTestSupport
import Foundation
import Testing

@testable import ComposePersistence

/// A scoped directory (a sandbox's) lets writes in while its scope is open, refuses them once it
/// is closing, and is removed only after the writes already in are done.
@Suite struct ScopedDirectoryTests {
    typealias Machine = ScopedDirectoryStateMachine

    @Test func aCloseWithNobodyWritingRemovesAtOnceAndLaterWritesAreRefused() {
        var machine = Machine()
        #expect(machine.enter() == .write)
        #expect(machine.leave() == .none)
        #expect(machine.close() == .remove)
        #expect(machine.enter() == .refuse)
        #expect(machine.close() == .none)
        #expect(machine.isClosed)
    }

    @Test func aCloseWaitsForTheWritesAlreadyInAndRefusesNewOnes() {
        var machine = Machine()
        #expect(machine.enter() == .write)
        #expect(machine.enter() == .write)
        #expect(machine.close() == .waitForWriters)
        #expect(machine.enter() == .refuse)
        #expect(machine.leave() == .none)
        #expect(!machine.isClosed)
        #expect(machine.leave() == .wakeTheCloser)
        #expect(machine.isClosed)
    }

    /// With threads: a save blocked in the middle when the scope closes (it waits for the
    /// directory's lock, which the test holds) finishes before the close removes the directory;
    /// a save tried meanwhile is refused and writes nothing.
    @Test(.timeLimit(.minutes(5)))
    func aSaveInProgressWhenTheScopeClosesFinishesBeforeTheDirectoryIsRemoved() async throws {
        let temporary = TemporaryDirectory()  // removes the directory if a check fails first
        let url = temporary.url
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        let lock = DirectoryLockHolder(url.path)
        let scope = ScopedDirectory(url: url, owner: "the scope")
        let storage = scope.run { FilePersistentStorage(key: "k") }
        #expect(storage.directory == url)
        lock.hold()
        let written = Recorder<Bool>()
        startThread { written.record((try? storage.write(Data("in flight".utf8))) != nil) }
        #expect(await eventually { scope.state == .open(writers: 1) })
        let closed = Recorder<Void>()
        startThread {
            scope.close()
            closed.record()
        }
        #expect(await eventually { scope.state == .closing(writers: 1) })
        #expect(closed.count == 0)  // a close cannot return while a write is in
        #expect(throws: PersistenceError.self) { try storage.write(Data("late".utf8)) }
        lock.release()
        #expect(await closed.wait(forCount: 1))
        #expect(await written.wait(forCount: 1))  // recorded after the write left, which let the close go
        #expect(written.values == [true])
        #expect(!FileManager.default.fileExists(atPath: url.path))
        #expect(throws: PersistenceError.self) { try storage.write(Data("later".utf8)) }
        #expect(!FileManager.default.fileExists(atPath: url.path))
        #expect(try storage.read() == nil)
        try storage.delete()
    }

    @Test func onlyStoragesInsideTheScopesDirectoryBelongToIt() throws {
        let temporary = TemporaryDirectory()  // removes the directory if a check fails first
        let url = temporary.url
        let elsewhere = TemporaryDirectory()
        let scope = ScopedDirectory(url: url, owner: "the scope")
        let (inside, nested, outside) = scope.run {
            (
                FilePersistentStorage(key: "k"),
                FilePersistentStorage(key: "k", directory: url.appendingPathComponent("nested")),
                FilePersistentStorage(key: "k", directory: elsewhere.url)
            )
        }
        scope.close()
        #expect(throws: PersistenceError.self) { try inside.write(Data("x".utf8)) }
        #expect(throws: PersistenceError.self) { try nested.write(Data("x".utf8)) }
        try outside.write(Data("x".utf8))
        #expect(elsewhere.contents == ["k.json"])
        #expect(!FileManager.default.fileExists(atPath: url.path))
    }

    /// A directory is the scope's when its path, as spelled or with links followed, starts with
    /// the scope's directory, as spelled or with links followed: through a link inside the scope's
    /// directory that leads out, through a link to it, through a link to its parent.
    @Test func aDirectoryReachedThroughALinkInEitherDirectionIsTheScopes() throws {
        let temporary = TemporaryDirectory()
        let url = temporary.url
        let outside = TemporaryDirectory()
        let links = TemporaryDirectory()
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: outside.url, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: links.url, withIntermediateDirectories: true)
        let scope = ScopedDirectory(url: url, owner: "the scope")
        let leadingOut = url.appendingPathComponent("shared")
        try FileManager.default.createSymbolicLink(at: leadingOut, withDestinationURL: outside.url)
        let toIt = links.url.appendingPathComponent("it")
        try FileManager.default.createSymbolicLink(at: toIt, withDestinationURL: url)
        let toParent = links.url.appendingPathComponent("parent")
        try FileManager.default.createSymbolicLink(at: toParent, withDestinationURL: url.deletingLastPathComponent())
        for directory in [
            leadingOut.appendingPathComponent("sub"), toIt, toIt.appendingPathComponent("a/../b"),
            toParent.appendingPathComponent(url.lastPathComponent),
        ] {
            #expect(ScopedDirectory.containing(directory) === scope, "\(directory.path)")
        }
        #expect(ScopedDirectory.containing(outside.url) == nil)
        #expect(ScopedDirectory.containing(links.url) == nil)
        scope.close()
    }
}
