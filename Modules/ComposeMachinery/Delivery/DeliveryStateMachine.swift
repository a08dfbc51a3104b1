/// The delivery protocol of Compose's serial deliveries (every emitter, and every ``Relay``), as a
/// pure state machine.
///
/// A delivery hands values, one at a time, in order, to handlers that are never called
/// concurrently with themselves. One thread at a time holds the *delivery role*: the thread that
/// sends while nobody delivers takes it and delivers at once, on its own stack; a value sent while
/// somebody delivers (another thread, or a handler sending again) is queued, and the thread holding
/// the role delivers it, in order, before it gives the role up. No thread ever waits for a
/// delivery to end, so a reentrant or concurrent send cannot deadlock.
///
/// ## Shape
/// The state (``DeliveryState``: whether somebody holds the role, how many values wait) is one
/// word, ``DeliveryWord``. Each function here is one transition: it takes the state, changes it,
/// and returns what the thread must do next (``DeliveryAction``). ``DeliveryWord/apply(_:)``
/// applies a transition atomically, with a compare-and-exchange, so a transition is one indivisible
/// step whatever other threads do; the functions are pure, so tests drive them synchronously
/// through every interleaving that matters, without threads.
///
/// The queue itself lives beside the word, under its owner's lock (``LockedState``). The pending
/// count moves with it: a value is appended in the same hold of the lock as the transition that
/// counts it (``send(_:)``, ``enqueuedForLater(_:)``), and taken in the same hold as the one that
/// uncounts it (``tookNext(_:)``, or ``tookAll(_:count:)`` for the whole queue). The
/// transitions that need no queue, ``finish(_:)`` (give the role up), ``claim(_:)`` (take it
/// for a waiting queue) and ``sendWithoutLock(_:)`` (take it from idle, for an owner that keeps a
/// snapshot of its handlers), run without the lock: that keeps a send that finds nobody
/// delivering to two atomic operations, or one lock round trip and two atomic operations.
///
/// ## Why nothing is stranded
/// A value is only queued while somebody holds the role or values already wait, and the count says
/// so in the word before the lock is released. The holder gives the role up only by a transition
/// that sees no value waiting; since transitions are atomic, a value counted before it is seen by
/// it (the holder then takes it), and one counted after it finds the role free (its sender then
/// takes the role: ``DeliveryAction/deliverNow`` or ``DeliveryAction/drain``). Values queued for
/// later by a caller that orders them under a lock of its own wait until it claims them.
@usableFromInline
package enum DeliveryStateMachine {
    /// A sender arrives with a value. Applied under the owner's lock, which the sender keeps until
    /// it has queued the value if told to.
    ///
    /// - Returns:
    ///   - ``DeliveryAction/deliverNow``: nobody delivers and nothing waits. The sender took the
    ///     role; after unlocking it delivers the value, then applies ``finish(_:)``.
    ///   - ``DeliveryAction/enqueue``: somebody delivers. The sender appends the value to the
    ///     queue before unlocking (it is counted already) and is done: the holder delivers it.
    ///   - ``DeliveryAction/drain``: nobody delivers but values wait (queued for later). The
    ///     sender appends its value behind them (it is counted already) and took the role: after
    ///     unlocking it applies ``finish(_:)``, which hands it the queue.
    ///
    /// Granting ``DeliveryAction/deliverNow`` marks the snapshot fresh (see
    /// ``sendWithoutLock(_:)``): the sender publishes the handlers it is about to read in the same
    /// hold of the lock.
    @inlinable
    package static func send(_ state: inout DeliveryState) -> DeliveryAction {
        if state.isDelivering {
            state.pending += 1
            return .enqueue
        }
        state.isDelivering = true
        if state.pending == 0 {
            state.snapshotIsStale = false
            return .deliverNow
        }
        state.pending += 1
        return .drain
    }

    /// A sender arrives with a value and does not take the lock. Needs no lock.
    ///
    /// An owner whose handlers change rarely keeps a *snapshot* of them, published under its
    /// lock by the last thread that took the role holding it, and lets a sender that finds
    /// nobody delivering, nothing waiting and the snapshot fresh deliver to it without the lock:
    /// one compare-and-exchange from idle. Every change to the handlers marks the snapshot stale
    /// first (``handlersWillChange(_:)``), so a sender that succeeds reads handlers nobody is
    /// changing; every other state sends the sender to the lock.
    ///
    /// - Returns: ``DeliveryAction/deliverNow``: the sender took the role; it delivers the value
    ///   to the snapshot, then applies ``finish(_:)``. ``DeliveryAction/takeTheLock``: nothing
    ///   changed; the sender applies ``send(_:)`` under the lock instead.
    @inlinable
    package static func sendWithoutLock(_ state: inout DeliveryState) -> DeliveryAction {
        guard state.rawValue == 0 else { return .takeTheLock }  // idle
        state.isDelivering = true
        return .deliverNow
    }

    /// The owner is about to change its handlers. Applied under the owner's lock, before the
    /// change: it marks the snapshot stale, so no sender delivers to it without the lock until a
    /// holder of the role publishes a fresh one.
    ///
    /// - Returns: ``DeliveryAction/writeInPlace`` when nobody delivers: every reader of the
    ///   published handlers is done, and none can start before the lock is released.
    ///   ``DeliveryAction/writeACopy`` when somebody delivers, and may be reading them now.
    @inlinable
    package static func handlersWillChange(_ state: inout DeliveryState) -> DeliveryAction {
        state.snapshotIsStale = true
        return state.isDelivering ? .writeACopy : .writeInPlace
    }

    /// A value was queued by a caller that orders deliveries by a lock of its own (a store queues
    /// a commit's notice under the store's lock), and that asks for delivery after releasing it,
    /// with ``claim(_:)``. Applied under the owner's lock, in the same hold as the append.
    @inlinable
    package static func enqueuedForLater(_ state: inout DeliveryState) -> DeliveryAction {
        state.pending += 1
        return .done
    }

    /// Somebody wants waiting values delivered. Needs no lock.
    ///
    /// - Returns: ``DeliveryAction/drain`` when nobody delivered and values wait: the thread took
    ///   the role and applies ``finish(_:)``, which hands it the queue. ``DeliveryAction/done``
    ///   otherwise: the holder delivers them, or nothing waits.
    @inlinable
    package static func claim(_ state: inout DeliveryState) -> DeliveryAction {
        if state.isDelivering || state.pending == 0 { return .done }
        state.isDelivering = true
        return .drain
    }

    /// The holder of the role has nothing in hand. Needs no lock.
    ///
    /// - Returns: ``DeliveryAction/takeNext``: values wait; the holder takes the next one under
    ///   the lock, applies ``tookNext(_:)`` in the same hold, delivers it after unlocking, and
    ///   applies `finish` again. ``DeliveryAction/idle``: nothing waits, and the role was given up.
    @inlinable
    package static func finish(_ state: inout DeliveryState) -> DeliveryAction {
        precondition(state.isDelivering, "finish without the delivery role")
        if state.pending > 0 { return .takeNext }
        state.isDelivering = false
        return .idle
    }

    /// The holder of the role took the next value from the queue. Applied under the owner's lock,
    /// in the same hold as the removal.
    @inlinable
    ///
    /// It marks the snapshot fresh, like ``send(_:)``: the holder publishes the handlers in the
    /// same hold.
    package static func tookNext(_ state: inout DeliveryState) -> DeliveryAction {
        precondition(state.isDelivering && state.pending > 0, "took a value that was not counted")
        state.pending -= 1
        state.snapshotIsStale = false
        return .deliverNow
    }

    /// The holder of the role took every waiting value (`count` of them) out of the queue at
    /// once, to deliver them one after another without the lock. Applied under the owner's lock,
    /// in the same hold as the removal. A relay does this: it takes one lock per batch rather
    /// than one per event, so threads queueing in a tight loop cannot starve it of the lock.
    @inlinable
    package static func tookAll(_ state: inout DeliveryState, count: Int) -> DeliveryAction {
        precondition(state.isDelivering && count > 0 && state.pending == count, "took other than every waiting value")
        state.pending = 0
        return .deliverNow
    }
}

/// What a thread must do after a transition of ``DeliveryStateMachine``.
@usableFromInline
package enum DeliveryAction: Equatable, Sendable {
    /// Deliver the value in hand (after unlocking): the thread holds the role.
    case deliverNow
    /// Append the value to the queue, under the lock still held; somebody else delivers it.
    case enqueue
    /// Append the value to the queue if there is one in hand, under the lock still held; the
    /// thread holds the role and delivers the queue.
    case drain
    /// Nothing more to do.
    case done
    /// Take the next queued value, under the lock.
    case takeNext
    /// The role was given up.
    case idle
    /// Nothing changed: apply ``DeliveryStateMachine/send(_:)`` under the lock.
    case takeTheLock
    /// Change the handlers in place: nobody reads them.
    case writeInPlace
    /// Change a copy of the handlers, and keep the published ones alive: a delivery may read them.
    case writeACopy
}

/// The state of ``DeliveryStateMachine``: whether a thread holds the delivery role, how many
/// values wait in the queue, and whether the owner's snapshot of its handlers is stale. One word,
/// so a transition is one compare-and-exchange.
@frozen
@usableFromInline
package struct DeliveryState: Equatable, Sendable, CustomStringConvertible {
    /// Bit 0: the role is held. Bit 1: the snapshot is stale. The other bits: the number of
    /// values waiting.
    @usableFromInline
    package var rawValue: UInt

    /// Nobody delivers, nothing waits.
    package static let idle = DeliveryState(rawValue: 0)

    @inlinable
    package init(rawValue: UInt) {
        self.rawValue = rawValue
    }

    @inlinable
    package init(isDelivering: Bool = false, pending: Int = 0, snapshotIsStale: Bool = false) {
        precondition(pending >= 0)
        rawValue = UInt(pending) << 2 | (snapshotIsStale ? 2 : 0) | (isDelivering ? 1 : 0)
    }

    /// Whether a thread holds the delivery role.
    @inlinable
    package var isDelivering: Bool {
        get { rawValue & 1 != 0 }
        set { rawValue = newValue ? rawValue | 1 : rawValue & ~1 }
    }

    /// Whether the handlers changed since a holder of the role last published them: senders
    /// must take the lock (see ``DeliveryStateMachine/sendWithoutLock(_:)``). Owners that keep no
    /// snapshot (a ``Relay``) never set it.
    @inlinable
    package var snapshotIsStale: Bool {
        get { rawValue & 2 != 0 }
        set { rawValue = newValue ? rawValue | 2 : rawValue & ~2 }
    }

    /// The number of values waiting in the queue.
    @inlinable
    package var pending: Int {
        get { Int(rawValue >> 2) }
        set { rawValue = UInt(newValue) << 2 | rawValue & 3 }
    }

    @usableFromInline
    package var description: String {
        let role =
            switch (isDelivering, pending) {
            case (false, 0): "idle"
            case (true, 0): "delivering"
            case (false, let pending): "pending \(pending)"
            case (true, let pending): "delivering, pending \(pending)"
            }
        return snapshotIsStale ? role + ", snapshot stale" : role
    }
}
