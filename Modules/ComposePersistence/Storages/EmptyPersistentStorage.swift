import Foundation

/// A storage that keeps nothing: saving succeeds and is forgotten, restoring finds nothing.
///
/// The storage of a store created without one.
public struct EmptyPersistentStorage: AnyPersistentStorage {
    /// The storage that keeps nothing.
    public init() {}

    public func write(_ data: Data) throws(PersistenceError) {}

    public func read() throws(PersistenceError) -> Data? {
        nil
    }

    public func delete() throws(PersistenceError) {}

    public func moveAside(_ data: Data) throws(PersistenceError) -> String? {
        nil
    }

    public var description: String {
        "no storage"
    }
}
