import ComposePersistence
import ComposeStore
import ComposeTestSupport
import Foundation
import Testing

/// A restore that finds a corrupt save sets aside exactly the bytes it failed to decode: never a
/// save that another store or process completed meanwhile.
@Suite struct ConcurrentRestoreTests {
    static let corrupt = "{ this save is corrupt"

    /// The storage-level rule every storage keeps: bytes other than the ones given are never set
    /// aside.
    @Test func onlyTheBytesThatFailedAreSetAside() throws {
        let directory = TemporaryDirectory()
        let storage = FilePersistentStorage(key: "k", directory: directory.url)
        try storage.write(Data("newer".utf8))
        #expect(try storage.moveAside(Data("older".utf8)) == nil)
        #expect(directory.contents == ["k.json"])
        #expect(try storage.moveAside(Data("newer".utf8)) != nil)
        #expect(try storage.read() == nil)

        let memory = InMemoryPersistentStorage(data: Data("newer".utf8))
        #expect(try memory.moveAside(Data("older".utf8)) == nil)
        #expect(memory.data == Data("newer".utf8))
        #expect(memory.movedAside.isEmpty)
    }

    /// A save replaced between reading and setting aside: the restore still reports the corrupt
    /// bytes it read, says nothing was moved, and the newer save is intact.
    @Test func aCorruptSaveReplacedBeforeItIsSetAsideIsReportedAndTheNewSaveKept() throws {
        let storage = SwappingStorage(corrupt: Data(Self.corrupt.utf8))
        let store = Store<Payload>(storage: storage)
        #expect {
            try store.persistence.restore()
        } throws: { error in
            guard case .corrupt(_, _, let movedTo) = error as? PersistenceError else { return false }
            return movedTo == nil
        }
        #expect(storage.current == storage.replacement)
    }
}

/// Holds corrupt bytes for the first read, then a valid save written "by another process"
/// before the restore gets to set the corrupt bytes aside.
private final class SwappingStorage: AnyPersistentStorage {
    let memory: InMemoryPersistentStorage
    let replacement: Data

    init(corrupt: Data) {
        memory = InMemoryPersistentStorage(data: corrupt)
        let other = Store<Payload>(storage: InMemoryPersistentStorage())
        other.state = Payload(marker: "newer", size: 10)
        try! other.persistence.save()
        replacement = (other.persistence.storage as! InMemoryPersistentStorage).data!
    }

    var current: Data? { memory.data }

    func write(_ data: Data) throws(PersistenceError) { try memory.write(data) }

    func read() throws(PersistenceError) -> Data? {
        let data = try memory.read()
        memory.data = replacement  // a newer save lands right after the read
        return data
    }

    func delete() throws(PersistenceError) { try memory.delete() }
    func moveAside(_ data: Data) throws(PersistenceError) -> String? { try memory.moveAside(data) }
    var description: String { "swapping" }
}
