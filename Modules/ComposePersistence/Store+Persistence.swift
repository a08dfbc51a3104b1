import ComposeEmitters
import ComposeStore

extension Store where State: Codable {
    /// A store holding `State()`, persisted in `storage`.
    ///
    /// ```swift
    /// @Store(storage: FilePersistentStorage(key: "login-fields")) var state: State
    /// ```
    ///
    /// - Parameters:
    ///   - storage: Where ``persistence`` saves the state.
    ///   - autosave: Save automatically after changes; `nil` (the default) saves only when asked.
    ///   - label: How the store is named in the event log.
    public init(storage: some AnyPersistentStorage, autosave: Autosave? = nil, label: String? = nil) {
        self.init(wrappedValue: State(), storage: storage, autosave: autosave, label: label)
    }

    /// A store holding `wrappedValue`, persisted in `storage`.
    public init(
        wrappedValue: State,
        storage: some AnyPersistentStorage,
        autosave: Autosave? = nil,
        label: String? = nil
    ) {
        self.init(wrappedValue: wrappedValue, label: label)
        self.storage.setStoreExtension(Persistence(store: self.storage, storage: storage, autosave: autosave))
    }

    /// Saving and restoring: `$state.persistence.save()`, `.restore()`, `.purge()`.
    ///
    /// A store created without a storage persists to ``EmptyPersistentStorage``: saving does
    /// nothing, restoring finds nothing.
    public var persistence: Persistence<State> {
        let storage = self.storage
        return storage.storeExtension(Persistence<State>.self) {
            Persistence(store: storage, storage: EmptyPersistentStorage(), autosave: nil)
        }
    }
}
