import Foundation

/// A directory of its own for a test, removed when the test ends.
final class TemporaryDirectory: Sendable {
    let url: URL

    init() {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("compose-persistence-tests-\(UUID().uuidString)", isDirectory: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    var path: String { url.path }

    /// The names in the directory, hidden ones included, sorted.
    var contents: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
    }

    func write(_ text: String, to name: String) throws {
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url.appendingPathComponent(name))
    }

    func read(_ name: String) -> String? {
        (try? Data(contentsOf: url.appendingPathComponent(name))).map { String(decoding: $0, as: UTF8.self) }
    }
}

/// Holds a directory's advisory lock exclusively, as `FilePersistentStorage` does to set a
/// corrupt save aside: saves into the directory wait until it is released.
final class DirectoryLockHolder: Sendable {
    private let descriptor: Int32

    init(_ path: String) {
        descriptor = open(path, O_RDONLY | O_DIRECTORY)
        precondition(descriptor >= 0, "cannot open \(path)")
    }

    deinit {
        close(descriptor)
    }

    func hold() {
        precondition(flock(descriptor, LOCK_EX) == 0, "flock failed")
    }

    func release() {
        precondition(flock(descriptor, LOCK_UN) == 0, "flock failed")
    }
}
