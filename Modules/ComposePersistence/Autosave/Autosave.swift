import ComposeEmitters

/// Saving a store automatically after it changes.
///
/// ```swift
/// @Store(storage: FilePersistentStorage(key: "draft"), autosave: .coalescing(window: .seconds(2)))
/// var state: State
/// ```
///
/// The first change after a quiet period is saved at once. Changes during the following `window`
/// are gathered into one save at its end (which opens a new window), so a burst of changes writes
/// the file twice: once at its start and once after it. Saves run on a background queue, one at a
/// time, reading the state as it is when they run. ``Persistence/flush()`` waits for pending saves;
/// when the process exits normally, pending saves are written before it ends; when the store goes
/// away, what it had pending is saved with its last state. A save is pending from when autosave
/// decides it (at once for the first change and when the store ends, at the end of its window or
/// on `flush()` for the others) until it has run, and ``Persistence/restore()`` of the same
/// storage, by any store of the process, waits for the pending ones. Autosave errors go to
/// ``Persistence/errors``.
public struct Autosave: Sendable {
    let makeSaver:
        @Sendable (
            _ identity: @escaping @Sendable () -> AnyHashable?,
            _ save: @escaping @Sendable () throws(PersistenceError) -> Void,
            _ errors: @escaping @Sendable (PersistenceError) -> Void
        ) -> any Autosaving

    /// Saves at the first change, then at most once per `window`, measured on
    /// `ComposeClock.current` when the store is created (the continuous clock unless a test or
    /// `Services.withOverrides` set another).
    public static func coalescing(window: Duration = .seconds(1)) -> Autosave {
        coalescing(window: window, clock: ComposeClock.current)
    }

    /// Saves at the first change, then at most once per `window` of `clock`. Pass a test clock to
    /// drive autosave by hand.
    public static func coalescing<C: Clock>(window: Duration, clock: C) -> Autosave where C.Duration == Duration {
        precondition(window >= .zero, "an autosave window cannot be negative: \(window)")
        return Autosave { identity, save, errors in
            Autosaver(window: window, clock: clock, identity: identity, save: save, errors: errors)
        }
    }
}
