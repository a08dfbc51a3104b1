import ComposeMachinery

/// The automatic saves of the process that are decided and not yet done, by the identity of
/// their storage (``AnyPersistentStorage/identity``): what ``Persistence/restore()`` waits for.
///
/// A store released without `flush()` leaves its last save on autosave's background queue; a new
/// store of the same key that restores at once would otherwise read the save before it, and its
/// own autosave would then overwrite the newer save with state derived from the older one. So a
/// save is registered when it is decided (a released store's last save when the store ends, before
/// its `deinit` returns), and done once it has run, successfully or not; a restore waits for the
/// saves of its identity registered before it began (see ``PendingSavesStateMachine``).
enum PendingSaves {
    /// A registered save, to be handed to ``saveDone(_:)``; `nil` for a storage without identity.
    struct Ticket: Sendable {
        let number: UInt64
    }

    private static let condition = ConditionLock()
    nonisolated(unsafe) private static var machine = PendingSavesStateMachine()  // Under `condition`.

    /// Registers a save of `identity` that autosave just decided.
    static func saveDecided(for identity: AnyHashable?) -> Ticket? {
        guard let identity else { return nil }
        return condition.withLock { Ticket(number: machine.saveDecided(for: identity)) }
    }

    /// The save of `ticket` has run (written, or failed): restores waiting for it go on.
    static func saveDone(_ ticket: Ticket?) {
        guard let ticket else { return }
        condition.withLock {
            if machine.saveDone(ticket.number) == .wakeRestores { condition.broadcast() }
        }
    }

    /// Reports a save's error: a restore that `report` makes on this thread does not wait.
    static func reporting(_ report: () -> Void) {
        let thread = ThreadIdentity.current
        condition.withLock { machine.reportingBegan(on: thread) }
        defer { condition.withLock { machine.reportingEnded(on: thread) } }
        report()
    }

    /// Whether this thread is reporting a save's error (inside ``reporting(_:)``).
    static var isReportingOnCurrentThread: Bool {
        let thread = ThreadIdentity.current
        return condition.withLock { machine.isReporting(on: thread) }
    }

    /// Waits until the saves of `identity` pending now are done. Returns at once without
    /// identity, or on a thread reporting a save's error. Call without any lock.
    static func waitForSaves(of identity: AnyHashable?) {
        guard let identity else { return }
        let thread = ThreadIdentity.current
        condition.withLock {
            guard case .wait(let tickets) = machine.restoreBegan(of: identity, on: thread) else { return }
            while !machine.isDone(tickets) { condition.wait() }
            machine.restoreStoppedWaiting(for: identity)
        }
    }

    /// How many restores of `identity` are waiting: for tests, to let a save go once a restore
    /// waits for it.
    static func waitingRestores(of identity: AnyHashable?) -> Int {
        guard let identity else { return 0 }
        return condition.withLock { machine.waiting[identity] ?? 0 }
    }
}
