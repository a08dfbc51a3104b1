import Foundation

/// A file, `<directory>/<key>.json`, saved atomically and durably.
///
/// ```swift
/// @Store(storage: FilePersistentStorage(key: "login-fields")) var state: State
/// ```
///
/// ## Keys
/// A key names the file, so it is checked before any file is touched: 1 to 100 characters among
/// ASCII letters, digits, `-` and `_`. A key with anything else (`../x`, `/etc/passwd`, a dot,
/// a space, a NUL byte, the empty key) makes every operation throw
/// ``PersistenceError/invalidKey(_:reason:)``. Dots are excluded so that no key can name this
/// storage's own temporary (`.<key>.json.<pid>.<n>.tmp`) or set-aside (`<key>.json.corrupt-...`)
/// files.
///
/// ## Directory
/// By default, files go to the platform's place for application data (see
/// ``defaultDirectory``). Pass `directory:`, or run code inside
/// `FilePersistentStorage.$directoryOverride.withValue(url) { ... }`, to put them elsewhere, as
/// tests do with a temporary directory.
///
/// A storage for a ComposeTesting sandbox's directory (its default in the sandbox) or a directory
/// inside it belongs to the sandbox, wherever the storage is made (in that sandbox, in another,
/// outside any): once the sandbox has ended and removed its
/// directory, the storage's saves are refused with ``PersistenceError/unwritable(location:reason:)``
/// (nothing is written and the directory is not recreated), its restores find nothing and its
/// purges succeed.
///
/// ## Guarantees
/// - A save writes a temporary file in the same directory, flushes it to disk, renames it over the
///   file and flushes the directory: a process killed at any moment leaves the previous save or
///   the new one, never a torn file.
/// - Saves from several threads, stores or processes never interleave; the last complete save
///   wins.
/// - Files are created readable and writable by their owner only (0600), directories 0700.
/// - A file that cannot be restored is moved aside, never deleted or overwritten; only the bytes
///   that failed to restore are moved, never a save written meanwhile by another store or
///   process.
/// - Anything at the file's place that is not a regular file (a FIFO, a socket, a device, a
///   directory) is refused with ``PersistenceError/notARegularFile(location:kind:)``, without
///   opening it for reading, so `restore()` never blocks on it.
/// - A file larger than ``maximumSize`` is refused with
///   ``PersistenceError/tooLarge(location:size:limit:)`` before its bytes are allocated, and left
///   in place (raise the limit to read it); a save larger than the limit is refused before
///   anything is written, so every save this storage writes can be restored by it.
/// - A process killed while saving leaves a temporary file (`.<key>.json.<pid>.<n>.tmp`); the next
///   `restore()` or `purge()` removes it, once no process is writing to the directory. Liveness
///   is decided by an advisory lock on the directory, which every process sees, whatever its PID
///   namespace, never by process ids.
public struct FilePersistentStorage: AnyPersistentStorage {
    /// The key, as given.
    public let key: String
    /// The directory the file is in.
    public let directory: URL
    /// The largest save this storage reads or writes, in bytes.
    public let maximumSize: Int
    private let keyProblem: String?
    /// The sandbox's directory this storage writes into, if it was made in one (see "Directory").
    private let scope: ScopedDirectory?

    /// The default of ``maximumSize``: 64 MiB. A larger save would take seconds to decode on a
    /// phone; a state that big belongs in a database.
    public static let defaultMaximumSize = 64 << 20

    /// A directory that replaces ``defaultDirectory`` for storages created while it is set.
    @TaskLocal
    public static var directoryOverride: URL?

    /// A storage for `key`.
    ///
    /// - Parameters:
    ///   - key: The file's name without extension; see "Keys".
    ///   - directory: Where the file goes; by default the override if set, otherwise
    ///     ``defaultDirectory``.
    ///   - maximumSize: The largest save read or written, in bytes; see "Guarantees".
    public init(key: String, directory: URL? = nil, maximumSize: Int = FilePersistentStorage.defaultMaximumSize) {
        precondition(maximumSize >= 0, "FilePersistentStorage: maximumSize cannot be negative: \(maximumSize)")
        self.key = key
        let directory = directory ?? Self.directoryOverride ?? Self.defaultDirectory
        self.directory = directory
        self.maximumSize = maximumSize
        self.keyProblem = Self.problem(with: key)
        self.scope = ScopedDirectory.containing(directory)
    }

    /// The file's location.
    public var fileURL: URL {
        directory.appendingPathComponent("\(key).json", isDirectory: false)
    }

    public func write(_ data: Data) throws(PersistenceError) {
        try checkKey()
        guard data.count <= maximumSize else {
            throw PersistenceError.tooLarge(location: fileURL.path, size: data.count, limit: maximumSize)
        }
        try inScope { () throws(PersistenceError) in
            try AtomicFile.write(data, to: fileURL.path, temporaryPrefix: temporaryPrefix)
        }
    }

    public func read() throws(PersistenceError) -> Data? {
        try checkKey()
        AtomicFile.removeAbandonedTemporaryFiles(directory: directory.path, prefix: temporaryPrefix)
        return try AtomicFile.read(fileURL.path, maximumSize: maximumSize)
    }

    public func delete() throws(PersistenceError) {
        try checkKey()
        try AtomicFile.remove(fileURL.path)
        AtomicFile.removeAbandonedTemporaryFiles(directory: directory.path, prefix: temporaryPrefix)
    }

    public func moveAside(_ data: Data) throws(PersistenceError) -> String? {
        try checkKey()
        return try inScope { () throws(PersistenceError) in
            try AtomicFile.moveAside(fileURL.path, ifContents: data, maximumSize: maximumSize)
        }
    }

    public var description: String {
        fileURL.path
    }

    /// The file's absolute path, with symbolic links in its directory followed and `.`, `..` and
    /// repeated slashes removed: storages of one key in one directory are one save, however the
    /// directory is spelled (a link to it, a relative path), and before the directory exists as
    /// after.
    public var identity: AnyHashable? {
        CanonicalPath.of(directory) + "/" + fileURL.lastPathComponent
    }

    /// Temporary files start with a dot and end in `.tmp`; they carry the writer's process id, for
    /// people reading the directory (liveness is decided by the directory lock).
    private var temporaryPrefix: String {
        ".\(key).json."
    }

    /// Runs `body`, which creates files, unless the sandbox the storage belongs to has ended: the
    /// sandbox whose directory holds ``directory`` as the file system is now (a link made since
    /// the storage was made counts), or the one it was made for.
    private func inScope<Result>(_ body: () throws(PersistenceError) -> Result) throws(PersistenceError) -> Result {
        guard let scope = ScopedDirectory.containing(directory) ?? scope else { return try body() }
        return try scope.write(to: fileURL.path, body)
    }

    private func checkKey() throws(PersistenceError) {
        if let keyProblem { throw PersistenceError.invalidKey(key, reason: keyProblem) }
    }

    /// The longest key accepted.
    public static let maximumKeyLength = 100

    /// Why `key` is not a safe file name, or `nil` if it is.
    static func problem(with key: String) -> String? {
        if key.isEmpty { return "it is empty" }
        if key.utf8.count > maximumKeyLength { return "it is longer than \(maximumKeyLength) characters" }
        if let character = key.unicodeScalars.first(where: { !isAllowed($0) }) {
            return "it contains \(character.escaped(asASCII: true)); use ASCII letters, digits, '-' and '_'"
        }
        return nil
    }

    private static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9", "-", "_": true
        default: false
        }
    }
}

extension FilePersistentStorage {
    /// Where files go by default: `$XDG_DATA_HOME/<app>` (or `~/.local/share/<app>`) on Linux, the
    /// Application Support directory's `<app>` on Apple platforms, where `<app>` is the bundle
    /// identifier or, failing that, the process name.
    public static var defaultDirectory: URL {
        let application = Bundle.main.bundleIdentifier ?? ProcessInfo.processInfo.processName
        #if canImport(Darwin)
        let base =
            FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first
            ?? URL(fileURLWithPath: NSHomeDirectory()).appendingPathComponent("Library/Application Support")
        #else
        let environment = ProcessInfo.processInfo.environment
        let base: URL
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") {
            base = URL(fileURLWithPath: data, isDirectory: true)
        } else {
            let home = environment["HOME"] ?? NSHomeDirectory()
            base = URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(".local/share")
        }
        #endif
        return base.appendingPathComponent(application, isDirectory: true)
    }
}
