import ComposePersistence
import ComposeStore
import ComposeTestSupport
import Foundation
import Testing

/// A restore that finds a corrupt save sets aside exactly the bytes it failed to decode: never a
/// save that another store or process completed meanwhile.
@Suite struct PersistenceStressTests {
    static let corrupt = "{ this save is corrupt"

    /// One store restores a corrupt `k.json` while another saves the same key, 300 rounds, both
    /// released at once by a barrier. Whatever the interleaving, the good save survives: the file
    /// holds it at the end, and every file set aside holds the corrupt bytes. (Before the fix, the
    /// good save was set aside in about a third of the rounds: the restore moved whatever was at
    /// the path when it failed, not what it had read.)
    @Test(.timeLimit(.minutes(5)))
    func aConcurrentRestoreNeverSetsAsideOrDeletesAGoodSave() async throws {
        let directory = StressDirectory()
        for round in 0..<300 {
            try directory.write(Self.corrupt, to: "k.json")
            let marker = "good\(round)"
            let barrier = Barrier(parties: 2)
            await onThreads(2) { thread in
                let storage = FilePersistentStorage(key: "k", directory: directory.url)
                let store = Store<Payload>(storage: storage)
                barrier.arriveAndWait()
                if thread == 0 {
                    _ = try? store.persistence.restore()
                } else {
                    store.state = Payload(marker: marker, size: 2_000)
                    try? store.persistence.save()
                }
            }
            let reader = Store<Payload>(storage: FilePersistentStorage(key: "k", directory: directory.url))
            #expect(try reader.persistence.restore(), "round \(round): the good save is gone")
            #expect(reader.state.marker == marker, "round \(round)")
            for name in directory.contents where name.hasPrefix("k.json.corrupt-") {
                #expect(directory.read(name) == Self.corrupt, "round \(round): a good save was set aside as \(name)")
                try FileManager.default.removeItem(atPath: directory.url.appendingPathComponent(name).path)
            }
        }
    }

}

/// A directory of its own, removed when the test ends.
final class StressDirectory: Sendable {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
        "compose-stress-\(UUID().uuidString)", isDirectory: true)

    deinit { try? FileManager.default.removeItem(at: url) }

    var contents: [String] { ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).sorted() }

    func write(_ text: String, to name: String) throws {
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url.appendingPathComponent(name))
    }

    func read(_ name: String) -> String? {
        (try? Data(contentsOf: url.appendingPathComponent(name))).map { String(decoding: $0, as: UTF8.self) }
    }
}
