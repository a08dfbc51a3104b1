/// The pure logic of ``PendingSaves``: which automatic saves are decided and not yet done, by
/// the identity of their storage, and what a restore waits for.
///
/// A restore waits for the saves of its identity pending when it begins, never for later ones:
/// a store that keeps saving cannot hold a restore back for ever. A restore made on a thread that
/// is reporting an automatic save's error does not wait at all: the saves it would wait for
/// include those queued behind that report, on the same serial queue.
struct PendingSavesStateMachine {
    /// What a restore does when it begins.
    enum RestoreAction: Equatable {
        /// Read now: nothing of its identity is pending, or the thread reports a save's error.
        case readNow
        /// Wait until these saves are done (``isDone(_:)``), then read; then call
        /// ``restoreStoppedWaiting(for:)``.
        case wait(for: Set<UInt64>)
    }

    /// What to do once a save is done.
    enum DoneAction: Equatable {
        case none
        /// Restores are waiting: wake them to look again.
        case wakeRestores
    }

    private var nextTicket: UInt64 = 1
    /// The pending saves: ticket to the identity of its storage.
    private(set) var pending: [UInt64: AnyHashable] = [:]
    /// How many restores of each identity are waiting.
    private(set) var waiting: [AnyHashable: Int] = [:]
    /// The threads reporting a save's error, with how many reports each is inside.
    private var reporting: [UInt: Int] = [:]

    /// A save of `identity` was decided: returns its ticket, to be handed to ``saveDone(_:)``
    /// once the save has run, whether or not it succeeded.
    mutating func saveDecided(for identity: AnyHashable) -> UInt64 {
        let ticket = nextTicket
        nextTicket += 1
        pending[ticket] = identity
        return ticket
    }

    mutating func saveDone(_ ticket: UInt64) -> DoneAction {
        pending[ticket] = nil
        return waiting.isEmpty ? .none : .wakeRestores
    }

    /// A restore of `identity` begins on `thread`.
    mutating func restoreBegan(of identity: AnyHashable, on thread: UInt) -> RestoreAction {
        guard reporting[thread] == nil else { return .readNow }
        let tickets = Set(pending.lazy.filter { $0.value == identity }.map(\.key))
        guard !tickets.isEmpty else { return .readNow }
        waiting[identity, default: 0] += 1
        return .wait(for: tickets)
    }

    /// Whether every save of `tickets` is done.
    func isDone(_ tickets: Set<UInt64>) -> Bool {
        tickets.allSatisfy { pending[$0] == nil }
    }

    /// A restore that waited stops waiting.
    mutating func restoreStoppedWaiting(for identity: AnyHashable) {
        let count = (waiting[identity] ?? 1) - 1
        waiting[identity] = count > 0 ? count : nil
    }

    /// `thread` begins reporting a save's error.
    mutating func reportingBegan(on thread: UInt) {
        reporting[thread, default: 0] += 1
    }

    /// Whether `thread` is reporting a save's error.
    func isReporting(on thread: UInt) -> Bool {
        reporting[thread] != nil
    }

    mutating func reportingEnded(on thread: UInt) {
        let count = (reporting[thread] ?? 1) - 1
        reporting[thread] = count > 0 ? count : nil
    }
}
