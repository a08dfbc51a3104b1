import ComposePersistence
import ComposeStore
import ComposeTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whatever sits at a save's path, `restore()` answers at once with a `PersistenceError`: it
/// never blocks, never allocates more than the limit, and leaves the thing as it found it.
@Suite(.timeLimit(.minutes(5)))
struct HostileFileTests {
    struct State: Codable, AnyState {
        var name = "current"
    }

    /// A FIFO at the path: opening it for reading would block until a writer comes (before the
    /// fix, `restore()` hung forever).
    @Test func aFIFOIsRefusedWithoutBlocking() throws {
        let directory = TemporaryDirectory()
        try FileManager.default.createDirectory(at: directory.url, withIntermediateDirectories: true)
        let path = directory.url.appendingPathComponent("k.json").path
        #expect(mkfifo(path, 0o600) == 0)
        try expectRefused(directory, kind: "a FIFO")
    }

    @Test func aDirectoryIsRefused() throws {
        let directory = TemporaryDirectory()
        try FileManager.default.createDirectory(
            at: directory.url.appendingPathComponent("k.json"), withIntermediateDirectories: true)
        try expectRefused(directory, kind: "a directory")
    }

    @Test func aSocketIsRefused() throws {
        let directory = TemporaryDirectory()
        try FileManager.default.createDirectory(at: directory.url, withIntermediateDirectories: true)
        let path = directory.url.appendingPathComponent("k.json").path
        let socket = makeUnixSocket(at: path)
        defer { close(socket) }
        #expect(socket >= 0)
        try expectRefused(directory, kind: "a socket")
    }

    /// A link to a device: followed, and the device refused (reading `/dev/zero` would never end).
    @Test func aDeviceIsRefused() throws {
        let directory = TemporaryDirectory()
        try FileManager.default.createDirectory(at: directory.url, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: directory.url.appendingPathComponent("k.json").path, withDestinationPath: "/dev/zero")
        try expectRefused(directory, kind: "a character device")
    }

    /// A 30 GB sparse file: refused by its size before anything is allocated (before the fix,
    /// `restore()` trapped allocating 30 GB), and left in place.
    @Test func aHugeFileIsRefusedByItsSizeAndKept() throws {
        let directory = TemporaryDirectory()
        try directory.write("", to: "k.json")
        let path = directory.url.appendingPathComponent("k.json").path
        let size = 30 << 30
        #expect(truncate(path, off_t(size)) == 0)
        let store = Store<State>(storage: FilePersistentStorage(key: "k", directory: directory.url))
        #expect(throws: PersistenceError.tooLarge(location: path, size: size, limit: FilePersistentStorage.defaultMaximumSize)) {
            try store.persistence.restore()
        }
        #expect(store.state == State())
        #expect(directory.contents == ["k.json"])
    }

    /// The limit is the storage's: a save over it is refused before anything is written, so
    /// what a storage writes it can always read back.
    @Test func theSizeLimitIsConfigurableAndAppliesToSaves() throws {
        let directory = TemporaryDirectory()
        let storage = FilePersistentStorage(key: "k", directory: directory.url, maximumSize: 1_000)
        let store = Store<Payload>(storage: storage)
        store.state = Payload(marker: "big", size: 2_000)
        #expect {
            try store.persistence.save()
        } throws: { error in
            guard case .tooLarge(_, let size, 1_000)? = error as? PersistenceError else { return false }
            return size > 2_000
        }
        #expect(directory.contents == [])
        store.state = Payload(marker: "small", size: 100)
        try store.persistence.save()
        let reader = Store<Payload>(storage: storage)
        #expect(try reader.persistence.restore())
        #expect(reader.state.marker == "small")
    }

    /// At the boundary: a save of exactly `maximumSize` bytes is written and read back, one of a
    /// byte more is refused before anything is written.
    @Test func aSaveOfExactlyTheLimitIsWrittenAndReadBack() throws {
        let directory = TemporaryDirectory()
        let storage = FilePersistentStorage(key: "k", directory: directory.url, maximumSize: 1_000)
        let exact = Data(repeating: UInt8(ascii: "a"), count: 1_000)
        try storage.write(exact)
        #expect(try storage.read() == exact)
        #expect(throws: PersistenceError.self) { try storage.write(exact + Data("b".utf8)) }
        #expect(try storage.read() == exact)
    }

    private func expectRefused(_ directory: TemporaryDirectory, kind: String) throws {
        let path = directory.url.appendingPathComponent("k.json").path
        let store = Store<State>(storage: FilePersistentStorage(key: "k", directory: directory.url))
        #expect(throws: PersistenceError.notARegularFile(location: path, kind: kind)) {
            try store.persistence.restore()
        }
        #expect(store.state == State())
        #expect(directory.contents.contains("k.json"))  // left as it was
        #expect(PersistenceError.notARegularFile(location: path, kind: kind).description.contains(kind))
    }
}

/// A UNIX socket bound at `path`; the descriptor, or -1.
private func makeUnixSocket(at path: String) -> Int32 {
    #if canImport(Glibc)
    let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    #else
    let descriptor = socket(AF_UNIX, SOCK_STREAM, 0)
    #endif
    guard descriptor >= 0 else { return -1 }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(path.utf8)
    guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return -1 }
    withUnsafeMutableBytes(of: &address.sun_path) { buffer in
        buffer.copyBytes(from: bytes)
        buffer[bytes.count] = 0
    }
    let bound = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
    return bound == 0 ? descriptor : -1
}
