import ComposeStore
import ComposeTestSupport
import Foundation
import Testing

@testable import ComposePersistence

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite struct FileStorageTests {
    @Test func filesAreOwnerOnlyAndTheDirectoryIsCreated() throws {
        let directory = TemporaryDirectory()
        let nested = directory.url.appendingPathComponent("a/b", isDirectory: true)
        let storage = FilePersistentStorage(key: "private", directory: nested)
        try storage.write(Data("{}".utf8))
        var status = stat()
        #expect(stat(storage.fileURL.path, &status) == 0)
        #expect(status.st_mode & 0o777 == 0o600)
        #expect(stat(nested.path, &status) == 0)
        #expect(status.st_mode & 0o777 == 0o700)
    }

    /// A save's bytes reach the disk before the rename publishes them, and the rename reaches it
    /// after: the calls a save makes, in order, as `FileSystemTrace` records them (a killed process
    /// cannot show a missing flush; a power loss would).
    @Test func aSaveIsFlushedBeforeItIsRenamedAndTheDirectoryAfter() throws {
        let directory = TemporaryDirectory()
        let storage = FilePersistentStorage(key: "durable", directory: directory.url)
        try storage.write(Data("{}".utf8))  // the directory exists: the second save is traced alone
        let trace = FileSystemTrace()
        try FileSystemTrace.$current.withValue(trace) {
            try storage.write(Data(#"{"a":1}"#.utf8))
        }
        guard case .create(let temporary)? = trace.calls.first else {
            Issue.record("no temporary file created: \(trace.calls)")
            return
        }
        let path = storage.fileURL.path
        #expect((temporary as NSString).deletingLastPathComponent == (path as NSString).deletingLastPathComponent)
        #expect(
            trace.calls == [
                .create(temporary), .write(temporary), .synchronize(temporary), .close(temporary),
                .rename(from: temporary, to: path), .synchronize((path as NSString).deletingLastPathComponent),
            ])
        #expect(try storage.read() == Data(#"{"a":1}"#.utf8))
    }

    @Test func readingAMissingFileFindsNothing() throws {
        let directory = TemporaryDirectory()
        let storage = FilePersistentStorage(key: "missing", directory: directory.url)
        #expect(try storage.read() == nil)
        try storage.delete()  // deleting nothing succeeds
    }

    @Test func aSaveLeavesNoTemporaryFile() throws {
        let directory = TemporaryDirectory()
        let store = Store<Payload>(storage: FilePersistentStorage(key: "clean", directory: directory.url))
        store.state = Payload(marker: "A", size: 1_000)
        for _ in 0..<10 { try store.persistence.save() }
        #expect(directory.contents == ["clean.json"])
    }

    /// A temporary file is abandoned when no writer holds the directory lock: a writer holds it
    /// from before it creates its temporary file until after its rename.
    @Test func temporaryFilesAreRemovedOnRestoreOnlyWhenNoWriterIsActive() throws {
        let directory = TemporaryDirectory()
        try directory.write("torn", to: ".abandoned.json.999999999.1.tmp")
        let storage = FilePersistentStorage(key: "abandoned", directory: directory.url)

        // A writer is active (here, this test holds its lock): its temporary file is kept.
        let writer = open(directory.path, O_RDONLY | O_DIRECTORY)
        defer { close(writer) }
        #expect(flock(writer, LOCK_SH) == 0)
        _ = try storage.read()
        #expect(directory.contents == [".abandoned.json.999999999.1.tmp"])

        // No writer: the file is abandoned, and the next restore removes it.
        #expect(flock(writer, LOCK_UN) == 0)
        _ = try storage.read()
        #expect(directory.contents == [])
    }

    @Test func theDirectoryOverrideAppliesToStoragesCreatedInside() {
        let directory = TemporaryDirectory()
        let storage = FilePersistentStorage.$directoryOverride.withValue(directory.url) {
            FilePersistentStorage(key: "overridden")
        }
        #expect(storage.directory == directory.url)
        #expect(FilePersistentStorage(key: "default").directory == FilePersistentStorage.defaultDirectory)
    }

    @Test func theDefaultDirectoryFollowsThePlatform() {
        let path = FilePersistentStorage.defaultDirectory.path
        #if os(Linux)
        if let data = ProcessInfo.processInfo.environment["XDG_DATA_HOME"], data.hasPrefix("/") {
            #expect(path.hasPrefix(data))
        } else {
            #expect(path.contains("/.local/share/"))
        }
        #endif
        #expect(!path.isEmpty)
    }

    @Test func ioErrorsSayWhichFileAndWhy() throws {
        let directory = TemporaryDirectory()
        try directory.write("not a directory", to: "blocker")
        let storage = FilePersistentStorage(key: "x", directory: directory.url.appendingPathComponent("blocker"))
        #expect {
            try storage.write(Data())
        } throws: { error in
            guard case PersistenceError.unwritable(let location, let reason) = error else { return false }
            return location.hasSuffix("blocker/x.json") && reason.contains("is not a directory")
        }
    }
}

@Suite struct KeyTests {
    @Test(arguments: [
        ("", "it is empty"),
        ("../x", "it contains ."),
        ("/etc/passwd", "it contains /"),
        ("a/b", "it contains /"),
        ("..", "it contains ."),
        ("x.json", "it contains ."),
        (".hidden", "it contains ."),
        ("with space", "it contains  "),
        ("nul\u{0}byte", "it contains \\0"),
        ("é", "it contains \\u{00E9}"),
        ("tab\t", "it contains \\t"),
        (String(repeating: "k", count: 101), "it is longer than 100 characters"),
    ])
    func unsafeKeysAreRejectedBeforeAnyFileIsTouched(key: String, reason: String) throws {
        let directory = TemporaryDirectory()
        let storage = FilePersistentStorage(key: key, directory: directory.url)
        for operation in [
            { try storage.write(Data("{}".utf8)) },
            { _ = try storage.read() },
            { try storage.delete() },
            { _ = try storage.moveAside(Data()) },
        ] as [() throws -> Void] {
            #expect {
                try operation()
            } throws: { error in
                guard case PersistenceError.invalidKey(let rejected, let why) = error else { return false }
                return rejected == key && why.hasPrefix(reason)
            }
        }
        #expect(!FileManager.default.fileExists(atPath: directory.path))  // not even the directory
    }

    @Test(arguments: ["login-fields", "a", "A_b-9", String(repeating: "k", count: 100)])
    func safeKeysAreAccepted(key: String) throws {
        let directory = TemporaryDirectory()
        try FilePersistentStorage(key: key, directory: directory.url).write(Data("{}".utf8))
        #expect(directory.contents == ["\(key).json"])
    }
}
