/// The delivery protocol of Compose's serial deliveries (every emitter, and every ``Relay``: the
/// operators with several inputs, a store's notifications, a host's tree events, delivery to
/// handlers isolated to an actor), as a pure state machine.
///
/// A delivery hands values, one at a time, in order, to handlers that are never called
/// concurrently with themselves. One thread at a time holds the *delivery role*: the thread that
/// sends while nobody delivers takes it and delivers at once, on its own stack; a value sent while
/// somebody delivers (another thread, or a handler sending again) is queued, and the thread holding
/// the role delivers it, in order, before it gives the role up. No thread waits for a delivery to
/// end, so a reentrant or concurrent send cannot deadlock; the one wait is ``stop(_:holderIsCurrentThread:)``'s.
///
/// ## Shape
/// The state (``DeliveryState``) is one word, ``DeliveryWord``. Each function here is one
/// transition: it takes the state, changes it, and returns what the thread must do next
/// (``DeliveryAction``). ``DeliveryWord/apply(_:)`` applies a transition atomically, with a
/// compare-and-exchange, so a transition is one indivisible step whatever other threads do; the
/// functions are pure, so tests drive them synchronously through every interleaving that
/// matters, without threads (`DeliveryStateMachineTests`, `DeliveryModel`).
///
/// The queue itself lives beside the word, under its owner's lock (``LockedState``). The pending
/// count moves with it: a value is appended in the same hold of the lock as the transition that
/// counts it (``send(_:)``, ``enqueuedForLater(_:)``, ``enqueuedForAnotherExecutor(_:)``), and
/// taken in the same hold as the one that uncounts it (``tookNext(_:)``, or
/// ``tookAll(_:count:)`` for the whole queue). The transitions that need no queue,
/// ``finish(_:)`` (give the role up), ``claim(_:)`` (take it for a waiting queue),
/// ``scheduledTaskBegan(_:)`` and ``sendWithoutLock(_:)`` (take it from idle, for an owner whose
/// handlers can be read without its lock), run without the lock: that keeps a send that finds
/// nobody delivering to two atomic operations, or one lock round trip and two atomic operations.
///
/// ## Why nothing is stranded
/// A value is only queued while somebody holds the role or values already wait, and the count says
/// so in the word before the lock is released. The holder gives the role up only by a transition
/// that sees no value waiting; since transitions are atomic, a value counted before it is seen by
/// it (the holder then takes it), and one counted after it finds the role free (its sender then
/// takes the role: ``DeliveryAction/deliverNow`` or ``DeliveryAction/drain``, or sends a task to
/// take it: ``DeliveryAction/schedule``). Values queued for later by a caller that orders them
/// under a lock of its own wait until it claims them.
///
/// ## Another executor
/// An owner that delivers on an executor other than the sender's (an actor, a dispatch queue)
/// takes the role only there: a sender elsewhere queues its value and, unless a task is on its
/// way or somebody delivers, sends a task (``enqueuedForAnotherExecutor(_:)``), which takes the
/// role when it begins (``scheduledTaskBegan(_:)``). So the role is held only by a thread that is
/// delivering, and a sender already on that executor (main-actor code, for the main actor) can
/// deliver at once, the values queued before its own first.
///
/// ## Stopping
/// ``stop(_:holderIsCurrentThread:)`` marks the delivery stopped for good: every later send is
/// discarded, no thread takes the role again, and the holder, if any, calls nothing more once it
/// sees the mark (it looks before every value) and gives the role up (``finish(_:)``). A stop
/// made while another thread holds the role waits until it is given up; so once `stop` has
/// returned, the handlers are never called again. A stop made by the holder itself (a handler
/// that stops its own delivery) does not wait: the call in progress is its own.
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
    ///   - ``DeliveryAction/drain``: nobody delivers but values wait (queued for later, or for a
    ///     task not begun yet). The sender appends its value behind them (it is counted already)
    ///     and took the role: after unlocking it applies ``finish(_:)``, which hands it the queue.
    ///   - ``DeliveryAction/discard``: the delivery is stopped.
    ///
    /// Granting ``DeliveryAction/deliverNow`` marks the snapshot fresh (see
    /// ``sendWithoutLock(_:)``): the sender publishes the handlers it is about to read in the same
    /// hold of the lock.
    @inlinable
    package static func send(_ state: inout DeliveryState) -> DeliveryAction {
        if state.isStopped { return .discard }
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
    /// changing; every other state (stopped, or a task on its way, included) sends the sender to
    /// the lock.
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
    /// with ``claim(_:)``. Applied under the owner's lock; the caller appends the value in the
    /// same hold unless told ``DeliveryAction/discard`` (the delivery is stopped).
    @inlinable
    package static func enqueuedForLater(_ state: inout DeliveryState) -> DeliveryAction {
        if state.isStopped { return .discard }
        state.pending += 1
        return .done
    }

    /// A value was sent from outside the executor the owner delivers on. Applied under the
    /// owner's lock; the caller appends the value in the same hold unless told
    /// ``DeliveryAction/discard``.
    ///
    /// - Returns: ``DeliveryAction/schedule`` when nobody delivers and no task is on its way: the
    ///   caller sends one, which applies ``scheduledTaskBegan(_:)`` on the executor.
    ///   ``DeliveryAction/done`` otherwise: the holder or the task delivers it.
    @inlinable
    package static func enqueuedForAnotherExecutor(_ state: inout DeliveryState) -> DeliveryAction {
        if state.isStopped { return .discard }
        state.pending += 1
        if state.isDelivering || state.isScheduled { return .done }
        state.isScheduled = true
        return .schedule
    }

    /// The task sent by ``enqueuedForAnotherExecutor(_:)`` begins, on the owner's executor. Needs
    /// no lock.
    ///
    /// - Returns: ``DeliveryAction/drain`` when values wait and nobody delivers: the task took the
    ///   role and applies ``finish(_:)``, which hands it the queue. ``DeliveryAction/done``
    ///   otherwise (a sender on the executor delivered them first, or the delivery was stopped).
    @inlinable
    package static func scheduledTaskBegan(_ state: inout DeliveryState) -> DeliveryAction {
        state.isScheduled = false
        return claim(&state)
    }

    /// Somebody wants waiting values delivered. Needs no lock.
    ///
    /// - Returns: ``DeliveryAction/drain`` when nobody delivered and values wait: the thread took
    ///   the role and applies ``finish(_:)``, which hands it the queue. ``DeliveryAction/done``
    ///   otherwise: the holder delivers them, nothing waits, or the delivery was stopped.
    @inlinable
    package static func claim(_ state: inout DeliveryState) -> DeliveryAction {
        if state.isStopped || state.isDelivering || state.pending == 0 { return .done }
        state.isDelivering = true
        return .drain
    }

    /// The holder of the role has nothing in hand. Needs no lock.
    ///
    /// - Returns: ``DeliveryAction/takeNext``: values wait; the holder takes the next one under
    ///   the lock, applies ``tookNext(_:)`` in the same hold, delivers it after unlocking, and
    ///   applies `finish` again. ``DeliveryAction/idle``: nothing waits, and the role was given
    ///   up. ``DeliveryAction/stopped``: the delivery was stopped; the role was given up, and the
    ///   values still waiting are uncounted for the holder to drop.
    @inlinable
    package static func finish(_ state: inout DeliveryState) -> DeliveryAction {
        precondition(state.isDelivering, "finish without the delivery role")
        if state.isStopped {
            state.isDelivering = false
            state.pending = 0
            return .stopped
        }
        if state.pending > 0 { return .takeNext }
        state.isDelivering = false
        return .idle
    }

    /// The holder of the role took the next value from the queue. Applied under the owner's lock,
    /// in the same hold as the removal.
    ///
    /// It marks the snapshot fresh, like ``send(_:)``: the holder publishes the handlers in the
    /// same hold.
    @inlinable
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

    /// Stops the delivery for good. Applied under the owner's lock.
    ///
    /// - Parameter holderIsCurrentThread: Whether the thread stopping holds the role (a handler
    ///   stopping its own delivery).
    /// - Returns:
    ///   - ``DeliveryAction/dropEverything``: nobody holds the role, and nobody will; the
    ///     waiting values are uncounted, for the caller to drop with the handler.
    ///   - ``DeliveryAction/waitForTheHolder``: another thread holds the role and may be calling
    ///     the handler; the caller waits until it is given up (the holder drops the rest).
    ///   - ``DeliveryAction/done``: the caller holds the role; it drops the rest when it next
    ///     applies ``finish(_:)``.
    @inlinable
    package static func stop(_ state: inout DeliveryState, holderIsCurrentThread: Bool) -> DeliveryAction {
        state.isStopped = true
        if !state.isDelivering {
            state.pending = 0
            return .dropEverything
        }
        return holderIsCurrentThread ? .done : .waitForTheHolder
    }
}
