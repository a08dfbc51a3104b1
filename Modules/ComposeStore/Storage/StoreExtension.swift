import ComposeEmitters
import ComposeMachinery

/// A per-store object of a module built on the store, which the store cannot name: the
/// `Persistence` of a store with a storage.
///
/// A store keeps at most one extension of each type, for its whole life, and tells each one when
/// it ends, with its last state: an extension with work pending (an autosave) finishes it
/// without the store.
@usableFromInline
package protocol StoreExtension<State>: AnyObject, Sendable {
    associatedtype State: AnyState

    /// The store is being released, and `finalState` is its last state. Called from the
    /// store's `deinit`, without any lock held, once.
    func storeDidEnd(finalState: State)
}

extension StoreStorage {
    /// The store's extension of type `type`, made by `make` the first time it is asked for.
    ///
    /// `make` runs without the lock; if two threads make one at once, the first one stored wins
    /// and the other is dropped.
    package func storeExtension<E: StoreExtension>(_ type: E.Type, orMake make: () -> E) -> E where E.State == State {
        let key = ObjectIdentifier(type)
        if let existing = core.withLock({ $0.extensions[key] }) { return existing as! E }
        let made = make()
        return core.withLock { core in
            if let existing = core.extensions[key] { return existing as! E }
            core.extensions[key] = made
            return made
        }
    }

    /// Sets the store's extension of its type, replacing any (a store made with a storage).
    package func setStoreExtension<E: StoreExtension>(_ value: E) where E.State == State {
        let replaced = core.withLock { core in
            core.extensions.updateValue(value, forKey: ObjectIdentifier(E.self))
        }
        _ = replaced  // released after the lock: its deinit is not ours to run under it
    }
}
