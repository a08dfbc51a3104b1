import ComposeEmitters
import ComposeMachinery
import ComposeStore
import Foundation

/// Saving and restoring a store's state: `$state.persistence`.
///
/// ```swift
/// struct LogInComponent {
///     @Store(storage: FilePersistentStorage(key: "login-fields")) var state: State
///
///     init() {
///         try? $state.persistence.restore()
///     }
/// }
/// ```
///
/// The state is saved as human-readable JSON in an envelope that records Compose's format version
/// and the state's version (see ``MigratableState``). The state's `CodingKeys` choose what is
/// saved; restoring decodes a state (the properties that were not saved keep their defaults) and
/// replaces the store's state with it, notifying observers of what changed.
///
/// Every failure is thrown (or, for autosave, sent on ``errors``); nothing is printed and
/// swallowed. A save that cannot be restored leaves the state as it was and is moved aside for
/// inspection.
public final class Persistence<State: AnyState & Codable>: StoreExtension {
    /// Weak, without giving the store a side table (see `LightWeakReference`): a side table would
    /// slow every retain and release of a persisted store.
    private let store: LightWeakReference<StoreStorage<State>>
    /// Where the state is saved.
    public let storage: any AnyPersistentStorage
    /// Errors of automatic saves, which have no caller to throw to.
    public let errors: ValueEmitter<PersistenceError>
    private let autosaver: (any Autosaving)?
    private let changes: EmitterSubscription?
    /// The store's last state once it has ended, for the saves still pending.
    private let source: SaveSource<State>

    init(store: StoreStorage<State>, storage: any AnyPersistentStorage, autosave: Autosave?) {
        self.store = LightWeakReference(store)
        self.storage = storage
        let errors = ValueEmitter<PersistenceError>(label: store.label + ".persistence.errors")
        self.errors = errors
        let source = SaveSource<State>()
        self.source = source
        guard let autosave else {
            autosaver = nil
            changes = nil
            return
        }
        // Holds the store weakly, and its last state once it has ended: a save pending when the
        // store goes away still writes the store's last state.
        let weakStore = self.store
        let save: @Sendable () throws(PersistenceError) -> Void = { () throws(PersistenceError) in
            if let store = weakStore.retainIfAlive() {
                try Self.save(store.read(), to: storage)
            } else if let state = source.stateAfterStoreEnded() {
                try Self.save(state, to: storage)
            }
        }
        let saver = autosave.makeSaver({ storage.identity }, save, { errors.send($0) })
        autosaver = saver
        changes = store.changed.register { [weak saver] _ in saver?.changed() }
    }

    deinit {
        changes?.cancel()
    }

    /// The store ended: pending automatic saves are written with its last state (see
    /// ``Autosave``), and their failures still reach ``errors``.
    @usableFromInline
    package func storeDidEnd(finalState: State) {
        let missed = source.storeEnded(with: finalState)
        autosaver?.storeEnded(saveAgain: missed)
    }

    /// Saves the state now.
    ///
    /// - Throws: ``PersistenceError``: the state could not be encoded, or the storage could not
    ///   write it (for a file, what was saved before is intact).
    public func save() throws(PersistenceError) {
        guard let store = store.retainIfAlive() else { throw .storeReleased }
        try Self.save(store.read(), to: storage)
    }

    /// Replaces the state with the saved one.
    ///
    /// First waits for the automatic saves of the same storage (equal
    /// ``AnyPersistentStorage/identity``) pending in the process when it is called, whichever
    /// store they belong to: a store released just before, without `flush()`, still has its last
    /// save on autosave's queue, and the restore reads that save, not the one before it. A save
    /// that fails ends the wait all the same (its error goes to its store's ``errors``). Saves
    /// decided after the call, and changes still gathered in a live store's autosave window, are
    /// not waited for. Called from an autosave error handler, on the thread that saves, it does
    /// not wait (the saves it would wait for can be queued behind that handler).
    ///
    /// - Returns: Whether there was a save to restore; without one, the state is left as it is.
    /// - Throws: ``PersistenceError``. A save that is truncated, not JSON or not this state throws
    ///   ``PersistenceError/corrupt(location:reason:movedTo:)`` and is moved aside; the state keeps its
    ///   current value. Only the bytes that failed to decode are moved aside: a save written by
    ///   another store or process meanwhile is left in place.
    @discardableResult
    public func restore() throws(PersistenceError) -> Bool {
        guard let store = store.retainIfAlive() else { throw .storeReleased }
        PendingSaves.waitForSaves(of: storage.identity)
        guard let data = try storage.read() else { return false }
        store.write(try decode(data))
        return true
    }

    /// Removes the saved state, and cancels every automatic save still pending: the data is gone
    /// when this returns, and stays gone until the state changes again. The store's state is not
    /// changed.
    ///
    /// A save already being written when `purge()` is called finishes first, and is then removed,
    /// as are the saves of this storage pending in the process (another store's, one released
    /// without `flush()` included), waited for as ``restore()`` waits for them. The changes that
    /// the live stores of this storage have gathered in their autosave windows are dropped: they
    /// were made before the purge. A change made after it is saved as usual.
    ///
    /// Called from an autosave error handler (on the queue that saves), it waits neither for
    /// the saves it would wait for (they may be queued behind that handler) nor for the other
    /// stores' queues (one may be waiting for this one): the others' windows are dropped as the
    /// purge begins, and one that closes in the meantime may still save.
    ///
    /// - Complexity: Waits for the autosave queue of each live store of this storage in the
    ///   process.
    public func purge() throws(PersistenceError) {
        let identity = storage.identity
        PendingSaves.waitForSaves(of: identity)
        // Each other live store of this storage drops its window once the saves it queued (one of a
        // window that closed since the wait above) have run.
        if let identity {
            let others = AutosaveRegistry.live(savingTo: identity, excluding: autosaver)
            if PendingSaves.isReportingOnCurrentThread {
                for other in others { other.dropPending() }
            } else {
                for other in others { try? other.purge {} }  // drops its window; deletes nothing
            }
        }
        guard let autosaver else {
            try storage.delete()
            return
        }
        let storage = self.storage
        try autosaver.purge { () throws(PersistenceError) in try storage.delete() }
    }

    /// Waits until every automatic save pending so far is written, saving at once what autosave
    /// would have saved at the end of its window. Returns at once without autosave.
    ///
    /// - Throws: The first error of the automatic saves since the last flush.
    public func flush() async throws(PersistenceError) {
        try await autosaver?.flush()
    }

    // MARK: Encoding

    static func save(_ state: State, to storage: any AnyPersistentStorage) throws(PersistenceError) {
        let data: Data
        do {
            data = try Envelope<State>.encoder().encode(Envelope(state: state, version: version))
        } catch {
            throw .encodingFailed(reason: "\(error)")
        }
        try storage.write(data)
    }

    static var version: Int {
        (State.self as? any MigratableState.Type)?.persistenceVersion ?? 1
    }

    private func decode(_ data: Data) throws(PersistenceError) -> State {
        let location = storage.description
        do {
            return try Envelope<State>.decoder(expecting: Self.version).decode(Envelope<State>.self, from: data).state
        } catch let mismatch as Envelope<State>.VersionMismatch {
            return try migrate(data, mismatch, location: location)
        } catch {
            throw setAside(data, location: location, reason: Self.describe(error))
        }
    }

    /// The error for bytes that are not a valid save, having set them aside if they are still
    /// what the storage holds. A failure to set them aside (a read-only disk) does not hide that
    /// the save is corrupt: it is added to the reason.
    private func setAside(_ data: Data, location: String, reason: String) -> PersistenceError {
        do {
            let movedTo = try storage.moveAside(data)
            return .corrupt(location: location, reason: reason, movedTo: movedTo)
        } catch {
            return .corrupt(location: location, reason: "\(reason); it could not be moved aside: \(error)", movedTo: nil)
        }
    }

    private func migrate(
        _ data: Data, _ mismatch: Envelope<State>.VersionMismatch, location: String
    ) throws(PersistenceError) -> State {
        if mismatch.formatVersion > Envelope<State>.formatVersion {
            throw .unsupportedFormat(location: location, formatVersion: mismatch.formatVersion)
        }
        guard mismatch.formatVersion >= 1 else {
            throw setAside(
                data, location: location, reason: "invalid format version \(mismatch.formatVersion) (versions start at 1)")
        }
        guard mismatch.version >= 1 else {
            throw setAside(data, location: location, reason: "invalid state version \(mismatch.version) (versions start at 1)")
        }
        guard mismatch.version < Self.version else {
            throw .migrationFailed(
                location: location,
                fromVersion: mismatch.version,
                reason: "it was saved by a newer version of the state (\(mismatch.version) > \(Self.version))"
            )
        }
        guard let migratable = State.self as? any MigratableState.Type else {
            throw .migrationFailed(
                location: location, fromVersion: mismatch.version, reason: "the state is not a MigratableState")
        }
        do {
            guard let envelope = try JSONSerialization.jsonObject(with: data) as? [String: Any],
                let state = envelope["state"]
            else {
                throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "no state in the envelope"))
            }
            let json = try JSONSerialization.data(withJSONObject: state, options: [.fragmentsAllowed])
            let migrated = try migratable.migrate(json, from: mismatch.version)
            return try Envelope<State>.stateDecoder().decode(State.self, from: migrated)
        } catch {
            throw .migrationFailed(location: location, fromVersion: mismatch.version, reason: Self.describe(error))
        }
    }

    /// A decoding error as a sentence that says where and what.
    static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        func path(_ context: DecodingError.Context) -> String {
            let keys = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
            return keys.isEmpty ? "the top level" : keys.joined(separator: ".")
        }
        switch error {
        case .dataCorrupted(let context):
            let underlying = context.underlyingError.map { " (\($0))" } ?? ""
            return "invalid data at \(path(context)): \(context.debugDescription)\(underlying)"
        case .keyNotFound(let key, let context):
            return "missing \(key.stringValue) at \(path(context))"
        case .typeMismatch(let type, let context):
            return "expected \(type) at \(path(context)): \(context.debugDescription)"
        case .valueNotFound(let type, let context):
            return "missing \(type) value at \(path(context))"
        @unknown default:
            return "\(error)"
        }
    }
}

/// What a pending automatic save reads once the store has ended: its last state.
///
/// A save can run in the moment between the store's release and its `deinit` handing over the
/// last state; it then finds neither, and says so (`missed`), and the hand-over saves again.
final class SaveSource<State: Sendable>: Sendable {
    private let state = LockedState<(final: State?, missed: Bool)>((nil, false))

    /// The store's last state, or `nil` (and noted as missed) if it has not been handed over.
    func stateAfterStoreEnded() -> State? {
        state.withLock { state in
            if let final = state.final { return final }
            state.missed = true
            return nil
        }
    }

    /// Hands over the last state; returns whether a save missed it.
    func storeEnded(with final: State) -> Bool {
        state.withLock { state in
            state.final = final
            return state.missed
        }
    }
}
