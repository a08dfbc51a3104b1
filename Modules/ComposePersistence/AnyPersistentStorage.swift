import Foundation

/// Where a store's state is persisted: bytes saved, read back, removed.
///
/// Compose ships ``FilePersistentStorage``, ``InMemoryPersistentStorage`` and
/// ``EmptyPersistentStorage``; conform your own type to persist elsewhere (a keychain, a
/// database row). The store's ``Persistence`` encodes the state; a storage only keeps bytes.
///
/// Requirements: ``write(_:)`` replaces the saved bytes atomically (a reader sees the old bytes
/// or the new, never a mix), ``moveAside(_:)`` sets aside only the bytes it is given, and every
/// method reports failure by throwing. ``identity`` says which save the storage holds, so that a
/// restore waits for the automatic saves of that save still pending in the process.
public protocol AnyPersistentStorage: Sendable, CustomStringConvertible {
    /// Replaces the saved bytes with `data`, atomically.
    func write(_ data: Data) throws(PersistenceError)

    /// The saved bytes, or `nil` if nothing is saved.
    func read() throws(PersistenceError) -> Data?

    /// Removes the saved bytes. Succeeds if nothing is saved.
    func delete() throws(PersistenceError)

    /// Sets aside the saved bytes if they are still exactly `data`, the bytes that could not be
    /// restored: keeps them where they can be inspected, and clears the save.
    ///
    /// A save written since `data` was read must be left alone (return `nil`): only the bytes
    /// that failed to restore may ever be set aside, never a completed save.
    ///
    /// - Returns: Where the bytes went, or `nil` if nothing was set aside.
    func moveAside(_ data: Data) throws(PersistenceError) -> String?

    /// Which save this storage reads and writes: storages with equal identities hold the same
    /// save (``FilePersistentStorage``: the same file).
    ///
    /// ``Persistence/restore()`` waits for the automatic saves of its identity that are pending
    /// in the process (a released store's last save included) before it reads. The default is
    /// the object's identity for a class (copies of a reference share the saved bytes) and `nil`
    /// for a value type: a restore through a storage without identity waits for nothing.
    var identity: AnyHashable? { get }
}

extension AnyPersistentStorage {
    /// No identity: restores wait for no pending save.
    public var identity: AnyHashable? {
        nil
    }
}

extension AnyPersistentStorage where Self: AnyObject {
    /// The object's identity: a storage object holds its own save.
    public var identity: AnyHashable? {
        ObjectIdentifier(self)
    }
}
