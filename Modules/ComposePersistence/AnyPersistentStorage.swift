import Foundation

/// Where a store's state is persisted: bytes saved, read back, removed.
///
/// Compose ships ``FilePersistentStorage``, ``InMemoryPersistentStorage`` and
/// ``EmptyPersistentStorage``; conform your own type to persist elsewhere (a keychain, a
/// database row). The store's ``Persistence`` encodes the state; a storage only keeps bytes.
///
/// Requirements: ``write(_:)`` replaces the saved bytes atomically (a reader sees the old bytes
/// or the new, never a mix), and every method reports failure by throwing.
public protocol AnyPersistentStorage: Sendable, CustomStringConvertible {
    /// Replaces the saved bytes with `data`, atomically.
    func write(_ data: Data) throws(PersistenceError)

    /// The saved bytes, or `nil` if nothing is saved.
    func read() throws(PersistenceError) -> Data?

    /// Removes the saved bytes. Succeeds if nothing is saved.
    func delete() throws(PersistenceError)

    /// Keeps saved bytes that could not be restored where they can be inspected, and clears the
    /// save. Returns where they went, if anywhere.
    func moveAside() throws(PersistenceError) -> String?
}
