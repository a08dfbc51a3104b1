#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
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
/// ## Guarantees
/// - A save writes a temporary file in the same directory, flushes it to disk, renames it over the
///   file and flushes the directory: a process killed at any moment leaves the previous save or
///   the new one, never a torn file.
/// - Saves from several threads, stores or processes never interleave; the last complete save
///   wins.
/// - Files are created readable and writable by their owner only (0600), directories 0700.
/// - A file that cannot be restored is moved aside, never deleted or overwritten.
public struct FilePersistentStorage: AnyPersistentStorage {
    /// The key, as given.
    public let key: String
    /// The directory the file is in.
    public let directory: URL
    private let keyProblem: String?

    /// A directory that replaces ``defaultDirectory`` for storages created while it is set.
    @TaskLocal
    public static var directoryOverride: URL?

    /// A storage for `key`.
    ///
    /// - Parameters:
    ///   - key: The file's name without extension; see "Keys".
    ///   - directory: Where the file goes; by default the override if set, otherwise
    ///     ``defaultDirectory``.
    public init(key: String, directory: URL? = nil) {
        self.key = key
        self.directory = directory ?? Self.directoryOverride ?? Self.defaultDirectory
        self.keyProblem = Self.problem(with: key)
    }

    /// The file's location.
    public var fileURL: URL {
        directory.appendingPathComponent("\(key).json", isDirectory: false)
    }

    public func write(_ data: Data) throws(PersistenceError) {
        try checkKey()
        let temporary = directory.appendingPathComponent(
            "\(temporaryPrefix)\(getpid()).\(UInt64.random(in: 0...UInt64.max)).tmp"
        ).path
        try AtomicFile.write(data, to: fileURL.path, temporary: temporary)
    }

    public func read() throws(PersistenceError) -> Data? {
        try checkKey()
        AtomicFile.removeAbandonedTemporaryFiles(directory: directory.path, prefix: temporaryPrefix)
        return try AtomicFile.read(fileURL.path)
    }

    public func delete() throws(PersistenceError) {
        try checkKey()
        try AtomicFile.remove(fileURL.path)
        AtomicFile.removeAbandonedTemporaryFiles(directory: directory.path, prefix: temporaryPrefix)
    }

    public func moveAside() throws(PersistenceError) -> String? {
        try checkKey()
        return try AtomicFile.moveAside(fileURL.path)
    }

    public var description: String {
        fileURL.path
    }

    /// Temporary files start with a dot and end in `.tmp`; they carry the writer's process id.
    private var temporaryPrefix: String {
        ".\(key).json."
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
