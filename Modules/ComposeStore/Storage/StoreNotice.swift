/// What a store's notifier delivers for one commit. Small whatever the size of the state: the
/// states, when kept at all, are boxed.
///
/// Not generic, and not nested in the generic storage: the states are kept type-erased, so
/// the compiler knows the notice's layout everywhere and copies it field by field. Nested in
/// `StoreStorage<State>`, it was copied and destroyed through its type's value witnesses, found
/// at run time, on every heard commit, and every type of state had its own specialization of
/// the relay.
@usableFromInline
struct StoreNotice: Sendable {
    @usableFromInline var changes: ChangedWords
    /// The states before and after (a `StoreStorage<State>.States`), kept only when someone
    /// needs them: the change emitters or the event log.
    @usableFromInline var states: (any AnyObject & Sendable)?
    /// Not a commit: observers added while commits landed look again at `changes`, and
    /// nothing else hears of it (no `willChange`, no autosave, no Observation report).
    @usableFromInline var isRefresh: Bool
    /// Whether the notice's observers were collected under the lock by the committing thread
    /// that took the notifier's role (see `StoreStorage.post(_:states:in:)`), with a copy of
    /// the state in `StoreStorage.snapshot` for those without offsets; `false` for a queued
    /// notice. A flag, not the snapshot: the storage owns the snapshot's buffer.
    @usableFromInline var filledSnapshot: Bool

    @inlinable
    init(
        changes: ChangedWords,
        states: (any AnyObject & Sendable)? = nil,
        isRefresh: Bool = false,
        filledSnapshot: Bool = false
    ) {
        self.changes = changes
        self.states = states
        self.isRefresh = isRefresh
        self.filledSnapshot = filledSnapshot
    }
}
