import ComposePersistence
import ComposeStore
import ComposeTestSupport
import Foundation
import Testing

@Suite struct CorruptFileTests {
    struct State: Codable, AnyState {
        var name = "current"
        var count = 7
    }

    static let valid = #"{"compose":1,"version":1,"savedAt":"2026-11-21T10:00:00Z","state":{"name":"saved","count":1}}"#

    @Test(arguments: [
        ("", "not valid JSON"),  // empty
        (String(valid.prefix(40)), "not valid JSON"),  // truncated
        ("not json at all", "not valid JSON"),
        (#"{"compose":1,"version":1,"savedAt":"2026-11-21T10:00:00Z"}"#, "missing state"),  // no state
        (
            #"{"compose":1,"version":1,"savedAt":"2026-11-21T10:00:00Z","state":{"name":3,"count":1}}"#,
            "expected String at state.name"
        ),
        (#"{"compose":1,"version":1,"savedAt":"yesterday","state":{"name":"x","count":1}}"#, "not an ISO 8601 date"),
        (#"[1,2,3]"#, "expected"),  // wrong shape
        (#"{"version":1,"state":{}}"#, "missing compose"),
    ])
    func aCorruptSaveThrowsKeepsTheStateAndIsMovedAside(contents: String, reason: String) throws {
        let directory = TemporaryDirectory()
        try directory.write(contents, to: "form.json")
        let store = Store<State>(storage: FilePersistentStorage(key: "form", directory: directory.url))

        var thrown: PersistenceError?
        do {
            try store.persistence.restore()
        } catch {
            thrown = error
        }

        guard case .corrupt(let location, let why, let movedTo)? = thrown else {
            Issue.record("expected a corrupt error, got \(String(describing: thrown))")
            return
        }
        #expect(location == directory.url.appendingPathComponent("form.json").path)
        #expect(why.contains(reason), "\(why)")
        #expect(store.state == State())  // unchanged
        let aside = try #require(movedTo)
        #expect((try? String(contentsOfFile: aside, encoding: .utf8)) == contents)  // kept as it was
        #expect(directory.contents.count == 1)  // only the set-aside file
        #expect(directory.contents.first?.hasPrefix("form.json.corrupt-") == true)
        #expect(try store.persistence.restore() == false)  // nothing left to restore
    }

    @Test func aSecondCorruptSaveDoesNotReplaceTheFirst() throws {
        let directory = TemporaryDirectory()
        let store = Store<State>(storage: FilePersistentStorage(key: "form", directory: directory.url))
        for contents in ["first", "second", "third"] {
            try directory.write(contents, to: "form.json")
            #expect(throws: PersistenceError.self) { try store.persistence.restore() }
        }
        let aside = directory.contents.filter { $0.hasPrefix("form.json.corrupt-") }
        #expect(aside.count == 3)
        #expect(Set(aside.compactMap { directory.read($0) }) == ["first", "second", "third"])
    }

    /// A save with `"version": 0` names what is wrong with it (before the fix: "unknown format
    /// version 1", the one version that was right).
    @Test func aSaveWithVersionZeroSaysSo() throws {
        let directory = TemporaryDirectory()
        try directory.write(#"{"compose":1,"version":0,"savedAt":"2026-11-21T10:00:00Z","state":{}}"#, to: "form.json")
        let store = Store<State>(storage: FilePersistentStorage(key: "form", directory: directory.url))
        #expect {
            try store.persistence.restore()
        } throws: { error in
            guard case .corrupt(_, let reason, let movedTo)? = error as? PersistenceError else { return false }
            return reason == "invalid state version 0 (versions start at 1)" && movedTo != nil
        }
    }

    /// A corrupt save that cannot be set aside (the disk is read-only) is still reported as
    /// corrupt, saying why it stayed; before the fix the error was `.unwritable`, hiding that the
    /// save was corrupt.
    @Test func aCorruptSaveThatCannotBeSetAsideIsStillReportedAsCorrupt() throws {
        let storage = TestPersistentStorage()
        storage.holdCorruptData()
        storage.failNext(.moveAside, with: .unwritable(location: "test storage", reason: "Read-only file system (errno 30)"))
        let store = Store<State>(storage: storage)
        #expect {
            try store.persistence.restore()
        } throws: { error in
            guard case .corrupt(_, let reason, let movedTo)? = error as? PersistenceError else { return false }
            return movedTo == nil && reason.contains("could not be moved aside") && reason.contains("Read-only file system")
        }
        #expect(storage.data != nil)  // left in place
    }

    /// The same on a real read-only file system (a tmpfs mounted read-only; needs root).
    @Test(.enabled(if: ReadOnlyMount.isAvailable, "needs root to mount a tmpfs"))
    func aCorruptSaveOnAReadOnlyFileSystemIsReportedAsCorrupt() throws {
        let directory = TemporaryDirectory()
        let mount = try ReadOnlyMount(at: directory.url) { url in
            try Data("{ not a save".utf8).write(to: url.appendingPathComponent("form.json"))
        }
        defer { mount.unmount() }
        let store = Store<State>(storage: FilePersistentStorage(key: "form", directory: directory.url))
        #expect {
            try store.persistence.restore()
        } throws: { error in
            guard case .corrupt(_, let reason, nil)? = error as? PersistenceError else { return false }
            return reason.contains("could not be moved aside")
        }
        #expect(directory.contents == ["form.json"])
    }

    @Test func aValidSaveRestores() throws {
        let directory = TemporaryDirectory()
        try directory.write(Self.valid, to: "form.json")
        let store = Store<State>(storage: FilePersistentStorage(key: "form", directory: directory.url))
        #expect(try store.persistence.restore())
        #expect(store.state == State(name: "saved", count: 1))
    }

    @Test func aSaveFromANewerFormatIsRefusedAndKept() throws {
        let directory = TemporaryDirectory()
        try directory.write(#"{"compose":2,"version":1,"savedAt":"2026-11-21T10:00:00Z","state":{}}"#, to: "form.json")
        let store = Store<State>(storage: FilePersistentStorage(key: "form", directory: directory.url))
        #expect(
            throws: PersistenceError.unsupportedFormat(
                location: directory.url.appendingPathComponent("form.json").path, formatVersion: 2)
        ) {
            try store.persistence.restore()
        }
        #expect(directory.contents == ["form.json"])  // not moved: a newer Compose can read it
    }
}

@Suite struct MigrationTests {
    /// Version 2 renamed version 1's "mail" to "email".
    struct State: MigratableState {
        var email = ""
        static var persistenceVersion: Int { 2 }

        static func migrate(_ json: Data, from version: Int) throws -> Data {
            guard version == 1, var object = try JSONSerialization.jsonObject(with: json) as? [String: Any] else {
                throw CocoaError(.featureUnsupported)
            }
            object["email"] = object.removeValue(forKey: "mail")
            return try JSONSerialization.data(withJSONObject: object)
        }
    }

    @Test func anOlderSaveIsMigrated() throws {
        let directory = TemporaryDirectory()
        try directory.write(
            #"{"compose":1,"version":1,"savedAt":"2026-01-01T00:00:00Z","state":{"mail":"jill@example.com"}}"#, to: "m.json")
        let store = Store<State>(storage: FilePersistentStorage(key: "m", directory: directory.url))
        #expect(try store.persistence.restore())
        #expect(store.state.email == "jill@example.com")
        try store.persistence.save()
        #expect(directory.read("m.json")?.contains("\"version\" : 2") == true)
    }

    @Test func aFailedMigrationLeavesStateAndSave() throws {
        let directory = TemporaryDirectory()
        // Version 1 without "mail": the migrated state has no "email" and does not decode.
        let contents = #"{"compose":1,"version":1,"savedAt":"2026-01-01T00:00:00Z","state":{"other":1}}"#
        try directory.write(contents, to: "m.json")
        let store = Store<State>(storage: FilePersistentStorage(key: "m", directory: directory.url))
        #expect {
            try store.persistence.restore()
        } throws: { error in
            guard case PersistenceError.migrationFailed(_, 1, let reason) = error else { return false }
            return reason.contains("email")
        }
        #expect(directory.read("m.json") == contents)
        #expect(store.state.email == "")
    }

    @Test func aSaveFromANewerStateVersionIsRefused() throws {
        let directory = TemporaryDirectory()
        try directory.write(#"{"compose":1,"version":3,"savedAt":"2026-01-01T00:00:00Z","state":{}}"#, to: "m.json")
        let store = Store<State>(storage: FilePersistentStorage(key: "m", directory: directory.url))
        #expect {
            try store.persistence.restore()
        } throws: { error in
            guard case PersistenceError.migrationFailed(_, 3, let reason) = error else { return false }
            return reason.contains("newer version")
        }
    }
}

/// A tmpfs mounted at a directory, filled, then made read-only.
struct ReadOnlyMount {
    let url: URL

    static var isAvailable: Bool {
        #if os(Linux)
        return getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/bin/mount")
        #else
        return false
        #endif
    }

    init(at url: URL, fill: (URL) throws -> Void) throws {
        self.url = url
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        try Self.mount(["-t", "tmpfs", "-o", "size=1m", "tmpfs", url.path])
        try fill(url)
        try Self.mount(["-o", "remount,ro", url.path])
    }

    func unmount() {
        _ = try? Self.run("/bin/umount", [url.path])
    }

    private static func mount(_ arguments: [String]) throws {
        guard try run("/bin/mount", arguments) == 0 else { throw CocoaError(.fileWriteNoPermission) }
    }

    private static func run(_ executable: String, _ arguments: [String]) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }
}
