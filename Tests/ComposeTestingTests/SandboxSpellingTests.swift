import Compose
import ComposePersistence
import ComposeTestSupport
import ComposeTesting
import Foundation
import Testing

/// A storage for a sandbox's directory belongs to the sandbox however the directory is spelled:
/// once the sandbox has ended, its save is refused and the directory is not recreated.
@Suite struct SandboxSpellingTests {
    enum Spelling: String, CaseIterable, Sendable, CustomTestStringConvertible {
        /// Through a symbolic link to the directory that holds the sandbox's directory.
        case linkToParent
        /// Through a symbolic link to the sandbox's directory itself.
        case linkToItself
        /// A relative path from the current directory.
        case relative

        var testDescription: String { rawValue }

        func spell(_ directory: URL, linksIn links: URL) throws -> URL {
            switch self {
            case .linkToParent:
                let link = links.appendingPathComponent("parent")
                try FileManager.default.createSymbolicLink(at: link, withDestinationURL: directory.deletingLastPathComponent())
                return link.appendingPathComponent(directory.lastPathComponent, isDirectory: true)
            case .linkToItself:
                let link = links.appendingPathComponent("itself")
                try FileManager.default.createSymbolicLink(at: link, withDestinationURL: directory)
                return link
            case .relative:
                return spelledRelativeToCurrentDirectory(directory)
            }
        }
    }

    @Test(arguments: Spelling.allCases)
    func aStorageOfTheSandboxsDirectorySpelledAnotherWayCannotWriteThereAfterTheEnd(_ spelling: Spelling) throws {
        try checkRefusedAfterTheEnd { sandbox, scratch in
            let storage = FilePersistentStorage(key: "late", directory: try spelling.spell(sandbox, linksIn: scratch))
            try storage.write(Data("{}".utf8))  // in the sandbox: written
            return storage
        }
    }

    /// The storage is made for a spelling through a link that does not exist yet; the link (to
    /// the directory that holds the sandbox's) is made before the first save.
    @Test func aStorageSpelledThroughALinkMadeAfterItCannotWriteThereAfterTheEnd() throws {
        try checkRefusedAfterTheEnd { sandbox, scratch in
            let link = scratch.appendingPathComponent("parent")
            let storage = FilePersistentStorage(
                key: "late", directory: link.appendingPathComponent(sandbox.lastPathComponent, isDirectory: true))
            try FileManager.default.createSymbolicLink(at: link, withDestinationURL: sandbox.deletingLastPathComponent())
            try storage.write(Data("{}".utf8))  // in the sandbox: written
            return storage
        }
    }

    /// The storage's directory is spelled inside the sandbox's, through a link there that leads
    /// outside: it belongs to the sandbox, and after the end its save neither writes nor
    /// recreates the sandbox's directory on the way.
    @Test func aStorageSpelledInsideTheSandboxThroughALinkLeadingOutBelongsToIt() throws {
        try checkRefusedAfterTheEnd { sandbox, scratch in
            let link = sandbox.appendingPathComponent("shared")
            try FileManager.default.createSymbolicLink(at: link, withDestinationURL: scratch)
            let storage = FilePersistentStorage(key: "late", directory: link.appendingPathComponent("sub", isDirectory: true))
            try storage.write(Data("{}".utf8))  // through the link: written outside
            return storage
        }
    }

    /// In a sandbox whose directory exists, `makeStorage(sandbox's directory, a scratch directory
    /// outside it)` makes and writes a storage; once the sandbox has ended, a save of that storage
    /// is refused and the sandbox's directory stays gone.
    private func checkRefusedAfterTheEnd(
        _ makeStorage: (_ sandbox: URL, _ scratch: URL) throws -> FilePersistentStorage,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("compose-scratch-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let (storage, directory) = try withComposeSandbox { sandbox in
            try FileManager.default.createDirectory(at: sandbox.directory, withIntermediateDirectories: true)
            return (try makeStorage(sandbox.directory, scratch), sandbox.directory)
        }
        defer { try? FileManager.default.removeItem(at: directory) }  // if a check fails
        #expect(!FileManager.default.fileExists(atPath: directory.path), sourceLocation: sourceLocation)
        #expect(throws: PersistenceError.self, sourceLocation: sourceLocation) { try storage.write(Data("{}".utf8)) }
        #expect(!FileManager.default.fileExists(atPath: directory.path), sourceLocation: sourceLocation)
    }
}
