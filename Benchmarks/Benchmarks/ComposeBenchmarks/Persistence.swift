import Benchmark
import ComposePersistence
import ComposeStore
import Foundation

/// Persistence scenarios: saving and restoring a state of about 1 MB of JSON, against encoding it
/// with `JSONEncoder` and writing it with `Data.write(to:options: .atomic)` (and the reverse);
/// and a burst of 1,000 changes under autosave, counting the file writes.
func persistenceBenchmarks() {
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("compose-benchmarks-\(ProcessInfo.processInfo.processIdentifier)", isDirectory: true)
    try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let library = Library.sample
    saveAndRestore(library, in: directory)
    autosaveBurst(library, in: directory)
}

/// About 1 MB of JSON: 8,000 books of a few fields each.
struct Library: Codable, AnyState {
    struct Book: Codable, Equatable {
        var id: Int
        var title: String
        var author: String
        var year: Int
        var tags: [String]
        var available: Bool
    }

    var books: [Book] = []

    static let sample = Library(
        books: (0..<8_000).map { index in
            Book(
                id: index,
                title: "The collected field notes of specimen \(index)",
                author: "Author \(index % 97)",
                year: 1900 + index % 125,
                tags: ["science", "archive", "volume \(index % 12)"],
                available: index.isMultiple(of: 3)
            )
        }
    )
}

private func saveAndRestore(_ library: Library, in directory: URL) {
    let store = Store<Library>(wrappedValue: library, storage: FilePersistentStorage(key: "library", directory: directory))
    let plainURL = directory.appendingPathComponent("plain.json")
    let configuration = scenario(ops: 1, unit: "saves")

    Benchmark("Persistence/save 1 MB state/Compose", configuration: configuration) { _ in
        do { try store.persistence.save() } catch { fatalError("benchmark save failed: \(error)") }
    }
    Benchmark("Persistence/save 1 MB state/JSONEncoder + Data.write(.atomic)", configuration: configuration) { _ in
        do {
            try JSONEncoder().encode(library).write(to: plainURL, options: .atomic)
        } catch {
            fatalError("benchmark write failed: \(error)")
        }
    }

    try? store.persistence.save()
    try? JSONEncoder().encode(library).write(to: plainURL, options: .atomic)
    let reader = Store<Library>(storage: FilePersistentStorage(key: "library", directory: directory))
    let restores = scenario(ops: 1, unit: "restores")
    Benchmark("Persistence/restore 1 MB state/Compose", configuration: restores) { _ in
        do { blackHole(try reader.persistence.restore()) } catch { fatalError("benchmark restore failed: \(error)") }
    }
    Benchmark("Persistence/restore 1 MB state/Data(contentsOf:) + JSONDecoder", configuration: restores) { _ in
        do {
            blackHole(try JSONDecoder().decode(Library.self, from: Data(contentsOf: plainURL)))
        } catch {
            fatalError("benchmark read failed: \(error)")
        }
    }
}

/// Counts the writes that reach a storage.
private final class CountingStorage: AnyPersistentStorage {
    let base: FilePersistentStorage
    private let writes = Counter()

    init(_ base: FilePersistentStorage) { self.base = base }

    func write(_ data: Data) throws(PersistenceError) {
        writes.add()
        try base.write(data)
    }

    func read() throws(PersistenceError) -> Data? { try base.read() }
    func delete() throws(PersistenceError) { try base.delete() }
    func moveAside(_ data: Data) throws(PersistenceError) -> String? { try base.moveAside(data) }
    var description: String { base.description }
    var count: Int { writes.value }

    private final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        func add() { lock.withLock { count += 1 } }
        var value: Int { lock.withLock { count } }
    }
}

/// 1,000 changes in a burst under autosave with a one-second window, then a flush: the file is
/// written at the first change and once for the rest of the burst.
private func autosaveBurst(_ library: Library, in directory: URL) {
    var configuration = scenario(ops: 1, unit: "bursts")
    configuration.metrics.append(.custom("file writes", polarity: .prefersSmaller, useScalingFactor: false))
    Benchmark("Persistence/autosave burst of 1,000 changes/Compose", configuration: configuration) { benchmark in
        let storage = CountingStorage(FilePersistentStorage(key: "burst", directory: directory))
        let store = Store<Library>(wrappedValue: library, storage: storage, autosave: .coalescing(window: .seconds(1)))
        for change in 0..<1_000 {
            store.state.books[change % 100].available.toggle()
        }
        let done = DispatchSemaphore(value: 0)
        Task {
            try? await store.persistence.flush()
            done.signal()
        }
        done.wait()
        benchmark.measurement(.custom("file writes", polarity: .prefersSmaller, useScalingFactor: false), storage.count)
    }
}
