/// Why a save, a restore or a purge failed. Every failure is reported, none is printed and
/// swallowed.
public enum PersistenceError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The key is not a safe file name; nothing was touched.
    case invalidKey(String, reason: String)
    /// The saved data could not be read.
    case unreadable(location: String, reason: String)
    /// What is at the save's location is not a regular file (a FIFO, a socket, a device, a
    /// directory). It was not opened for reading, so nothing blocked, and it was left as it is.
    case notARegularFile(location: String, kind: String)
    /// The save is larger than the storage's limit (``FilePersistentStorage/maximumSize``): it was
    /// not read (or, saving, not written), and it was left as it is.
    case tooLarge(location: String, size: Int, limit: Int)
    /// The data could not be saved; what was saved before is intact.
    case unwritable(location: String, reason: String)
    /// The saved data is not a valid save (truncated, not JSON, not this state). It was moved
    /// aside to `movedTo`, where it can be inspected, and the state was left as it was. `movedTo`
    /// is `nil` when the bytes could not be set aside (`reason` then says why) or when a newer
    /// save replaced them meanwhile (that save is left alone).
    case corrupt(location: String, reason: String, movedTo: String?)
    /// The save was written by a newer version of Compose, whose format this one cannot read.
    case unsupportedFormat(location: String, formatVersion: Int)
    /// The state's version in the save needs a migration that failed.
    case migrationFailed(location: String, fromVersion: Int, reason: String)
    /// The state could not be encoded.
    case encodingFailed(reason: String)
    /// The store this persistence belongs to no longer exists.
    case storeReleased

    public var description: String {
        switch self {
        case .invalidKey(let key, let reason):
            "invalid persistence key \(key.debugDescription): \(reason)"
        case .unreadable(let location, let reason):
            "cannot read \(location): \(reason)"
        case .notARegularFile(let location, let kind):
            "cannot read \(location): it is \(kind), not a regular file"
        case .tooLarge(let location, let size, let limit):
            "\(location) is \(size) bytes, more than the limit of \(limit) bytes"
        case .unwritable(let location, let reason):
            "cannot save \(location): \(reason)"
        case .corrupt(let location, let reason, let movedTo):
            "corrupt save \(location): \(reason)" + (movedTo.map { "; moved to \($0)" } ?? "")
        case .unsupportedFormat(let location, let version):
            "\(location) was saved in format \(version), newer than this version of Compose reads"
        case .migrationFailed(let location, let version, let reason):
            "cannot migrate \(location) from version \(version): \(reason)"
        case .encodingFailed(let reason):
            "cannot encode the state: \(reason)"
        case .storeReleased:
            "the store was released"
        }
    }
}
