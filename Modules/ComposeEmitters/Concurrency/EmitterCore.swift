import ComposeMachinery
import DequeModule
import Synchronization

/// The registry of handlers and the serial delivery behind every emitter.
///
/// ## Delivery
/// Values are delivered one at a time, to the handlers in subscription order, by the protocol of
/// ``DeliveryStateMachine``: the thread that sends while nobody delivers delivers at once, on its
/// own stack; a value sent while somebody delivers (another thread, or a handler sending again)
/// is queued, and the thread delivering delivers it, in send order, before its own `send`
/// returns. Two consequences that every operator relies on:
/// - a handler is never called concurrently with itself, nor with any other handler of the same
///   emitter, and every handler sees the values in the same order;
/// - no thread ever waits for a delivery: a reentrant or concurrent send cannot deadlock.
///
/// The state of the protocol is one atomic word (``DeliveryWord``). A send that finds nobody
/// delivering, nothing waiting and the handlers unchanged since the last delivery takes the role
/// with one compare-and-exchange and no lock (see "Sending without the lock"), and gives it up
/// with one more: that is the whole cost of a send beyond the handler calls. Any other send takes
/// the lock (for the handlers, the queue and the last value) and applies one transition in it.
///
/// ## Sending without the lock
/// Every delivery made under the lock publishes the handlers it reads (``publishEntries(_:)``) as
/// the *snapshot*, and marks it fresh in the word, in the same hold of the lock
/// (``DeliveryStateMachine/send(_:)``, ``DeliveryStateMachine/tookNext(_:)``). Every change to
/// the handlers marks it stale first (``DeliveryStateMachine/handlersWillChange(_:)``). A send
/// takes the role without the lock only from the word's idle state, fresh snapshot included
/// (``DeliveryStateMachine/sendWithoutLock(_:)``), so:
/// - it delivers to exactly the handlers a locked send would: the last published, unchanged
///   since (a change made after it took the role is made to a copy, as for any delivery);
/// - the snapshot's address and count are written only by a holder of the role under the lock
///   and read only by a holder of the role: the role's transitions order them;
/// - the cancellation count is loaded *before* the role is taken: a cancellation that completes
///   after the role was taken counts after it, so the loop checks that handler's token. (Loaded
///   after, it could include a cancellation whose handler is still in the snapshot, and skip
///   the check.)
///
/// The value whose delivery started most recently (``lastDelivered(in:)``: the current value of
/// `withCurrent()`, the previous one of `~+=`, `lastValue`) is written by the holder of the role.
/// A send without the lock cannot write it under the lock, so it is kept without one when it can
/// be: in an atomic word, for a value of plain bits that fits one (an `Int`, a `Double`, a
/// `Bool`, a small enum). A core whose values do not fit (a `String`, an array) sends under the
/// lock, as before; a core that keeps no value (a ``SignalEmitter``, a store's emitters) sends
/// without it whatever its values. A registration that needs the current value while somebody
/// holds the role, who may be writing it at that moment, does not read it: it queues itself, and
/// the holder, which wrote the value, hands it over under the lock before it delivers anything
/// else (``nextDelivery(_:replacing:)``). ``ValueEmitter/lastValue`` is the last value queued, or
/// else the last delivered: every queued value was sent after the one being delivered.
///
/// ## Registry
/// Entries live in a contiguous array, in subscription order. Cancelling leaves a tombstone
/// (amortized O(1)); the array is compacted once tombstones outnumber live entries. A delivery
/// reads the array's buffer in place (no retain, no copy), so subscribing or cancelling during a
/// delivery copies the array once and leaves the delivery undisturbed.
///
/// ## Publication
/// A delivery reads the array's buffer without the lock and without a reference to it: its
/// snapshot is the address and count of the elements, taken under the lock. So the buffer must
/// not be written or freed until that delivery is over, and the proof rests on the protocol
/// below, not on reference counts (a registry that wrote "in place" because it found the buffer
/// uniquely referenced would have no happens-before edge with a delivering thread's reads: the
/// runtime's reference counting is invisible to ThreadSanitizer, and on weakly ordered hardware a
/// plain uniqueness check is no acquire). So:
/// - taking a snapshot marks the buffer *published*; a send without the lock reads a published
///   buffer too (the snapshot is fresh only while the buffer is the current one and published);
/// - the holder of the delivery role is done reading before it gives the role up (a sequentially
///   consistent transition of the word, which is a release);
/// - a registration or cancellation marks the snapshot stale and looks at the role in the same
///   read-modify-write of the word. If nobody holds it, every reader's accesses happened before
///   this point, and no reader can start before the lock is released (a send without the lock
///   needs a fresh snapshot), so the buffer may be written in place. If somebody does, it copies
///   the entries to a fresh buffer and *retires* the published one, keeping it alive, instead of
///   writing or freeing it;
/// - the buffer in `entries` is freed only by the core's deinit, and the core is alive while
///   any of its methods runs (its caller holds it);
/// - retired buffers are freed only by a thread ordered after every reader, and promptly (their
///   handlers may hold what holds the emitter): the holder of the role when it gives it up and
///   nobody has taken it since (checked under the lock), the next holder, or a registration made
///   while nobody holds it.
///
/// ## Cancellation during a delivery
/// `cancellations` counts cancellations. The delivery loop compares it with the count it saw
/// when it took its snapshot and only looks at an entry's token when they differ, so the common
/// case costs one load per handler from a cache line the loop already holds.
///
/// ## Locks
/// The bookkeeping (handlers, queue, last value) is guarded by one ``LockedState``, held for a
/// few instructions and never while user code runs: handlers are called after it is released, and
/// values and closures it replaces are released after it too (a deinit is user code).
@usableFromInline
package final class EmitterCore<Value: Sendable>: @unchecked Sendable {
    @usableFromInline
    package typealias Token = EmitterToken

    /// A registration: the handler and the token handed out for it.
    ///
    /// An object rather than a (handler, token) pair, so that an element of `entries` is a single
    /// reference: the delivery loop reads it from the snapshot without retaining it (the snapshot
    /// keeps it alive) and calls the handler in place. Copying a pair out of the buffer retained
    /// and released the handler's context and the token around every call, which a closure with
    /// a context (every `@isolated(any)` handler has one) paid on each delivery. Separate from the
    /// token, so that a cancelled handler is released with its entry (when no delivery can still
    /// reach it) even if whoever cancelled keeps the subscription.
    @usableFromInline
    final class Entry: Sendable {
        @usableFromInline let handler: @Sendable (Value) -> Void
        @usableFromInline let token: Token

        @inlinable
        init(handler: @escaping @Sendable (Value) -> Void, token: Token) {
            self.handler = handler
            self.token = token
        }
    }

    @usableFromInline
    struct State {
        @usableFromInline var entries: ContiguousArray<Entry?> = []
        @usableFromInline var tombstones = 0
        /// Values sent while a delivery was in progress, in send order.
        @usableFromInline var queue: Deque<Value> = []
        /// Registrations made while somebody held the delivery role that need the current
        /// value: it is the holder's to read, and the holder hands it over before it delivers
        /// anything to them. Before `queue`, since the current value is older.
        @usableFromInline var replays: Deque<PendingRegistration> = []
        /// The value whose delivery started most recently: the "current" value a new subscriber
        /// is owed, and the "previous" value of `~+=`. Written by the holder of the delivery role
        /// only. Unused when the value fits a word (see ``lastDelivered(in:)``).
        @usableFromInline var lastDelivered: Value?
        /// Whether a delivery has taken a snapshot of `entries` since the array was last made
        /// safe to write (see "Publication"). While the snapshot is fresh (see "Sending without
        /// the lock"), it is true, or `entries` is the empty array nobody can write to.
        @usableFromInline var published = false
        /// Published buffers replaced while a delivery might still read them; freed by a thread
        /// ordered after every reader (see "Publication").
        @usableFromInline var retired: ContiguousArray<ContiguousArray<Entry?>> = []

        @inlinable
        init() {}
    }

    /// A registration that waits for the current value (see `State.replays`).
    @usableFromInline
    struct PendingRegistration {
        @usableFromInline let token: Token
        /// Whether the new handler is called with the current value first.
        @usableFromInline let replaysCurrent: Bool
        /// ``register(_:replayCurrent:whileRegistering:)``'s bookkeeping, run under the lock
        /// with the current value.
        @usableFromInline let whileRegistering: ((Value?) -> Void)?

        @inlinable
        init(token: Token, replaysCurrent: Bool, whileRegistering: ((Value?) -> Void)?) {
            self.token = token
            self.replaysCurrent = replaysCurrent
            self.whileRegistering = whileRegistering
        }
    }

    @usableFromInline let state = LockedState<State>(State())
    /// The delivery role and the number of values in `State.queue` and `State.replays`, changed
    /// by the transitions of ``DeliveryStateMachine`` only.
    @usableFromInline let delivery = DeliveryWord()
    /// Incremented (under the lock) after a token is marked cancelled.
    @usableFromInline let cancellations = Atomic<UInt>(0)
    /// Whether `State.retired` holds buffers. Set under the lock; see "Publication".
    @usableFromInline let hasRetired = Atomic<Bool>(false)
    /// The number of live handlers, readable without the lock.
    @usableFromInline let live = Atomic<Int>(0)
    /// Shown in the event log.
    @usableFromInline let label: String?
    /// Whether the core keeps `lastSent` and `lastDelivered` (value emitters do).
    @usableFromInline let remembersValues: Bool
    /// Whether sends are recorded in the event log while it is enabled.
    @usableFromInline let isLogged: Bool
    /// Whether the event log and session recordings show this core's values as
    /// `EventLog.RedactedValue` (a password field's emitter).
    @usableFromInline let isRedacted: Bool
    /// What this core's tokens reach it through; made with the first registration.
    @usableFromInline let lazyHandle = LazyReference<RegistryHandle>()
    /// The event log's switch, held directly so a send checks it with one relaxed atomic load
    /// and no lazy-global guard.
    @usableFromInline let logSwitch = EventLog.logSwitch
    /// Whether a send may deliver without the lock (see "Sending without the lock"): the core
    /// keeps no value, or its values fit `deliveredBits`.
    @usableFromInline let sendsWithoutLock: Bool
    /// The snapshot of `State.entries` that a send without the lock delivers to: the address and
    /// count of a published buffer. Written by a holder of the role under the lock, read by a
    /// holder of the role; the role's transitions order them.
    @usableFromInline let snapshotAddress = Atomic<UInt>(0)
    @usableFromInline let snapshotCount = Atomic<Int>(0)
    /// `State.lastDelivered` for a value that fits a word, as its bits: written by the holder of
    /// the role, with or without the lock, and readable by anyone.
    @usableFromInline let deliveredBits = Atomic<UInt>(0)
    /// Whether `deliveredBits` holds a value yet. Set once, after the first bits.
    @usableFromInline let hasDelivered = Atomic<Bool>(false)

    @usableFromInline
    package init(label: String?, remembersValues: Bool, isLogged: Bool = true, isRedacted: Bool = false) {
        self.label = label
        self.remembersValues = remembersValues
        self.isLogged = isLogged
        self.isRedacted = isRedacted
        sendsWithoutLock = !remembersValues || Self.valueFitsAWord
    }

    // MARK: The last delivered value

    /// Whether a value is plain bits that fit an atomic word (an `Int`, a `Double`, a `Bool`, a
    /// small enum or struct of them). Such a value can be remembered without the lock.
    ///
    /// Fast path for such values (a send that takes no lock), justified by the benchmark rows
    /// "fan-out N=1 vs closure loop" and "fan-out N=1 vs closure loop under a lock"
    /// (`Emitters/fan-out N=1`, a `ValueEmitter<Int>`).
    @inlinable
    static var valueFitsAWord: Bool {
        _isPOD(Value.self) && MemoryLayout<Value>.size <= MemoryLayout<UInt>.size
    }

    /// The value whose delivery started most recently. Called under the lock.
    ///
    /// For a value that fits a word, any thread may call it: it reads the atomic word, which a
    /// send without the lock may be writing (then it reads the value before or the one after).
    /// Otherwise only the holder of the role writes the value, under the lock.
    @inlinable
    func lastDelivered(in state: inout State) -> Value? {
        guard Self.valueFitsAWord else { return state.lastDelivered }
        guard hasDelivered.load(ordering: .acquiring) else { return nil }
        let bits = deliveredBits.load(ordering: .acquiring)
        return withUnsafeBytes(of: bits) { $0.load(as: Value.self) }
    }

    /// Records `value` as the last delivered. Called by the holder of the role, under the lock.
    ///
    /// - Returns: The value it replaces, for the caller to release after unlocking.
    @inlinable
    func recordDelivered(_ value: Value, in state: inout State) -> Value? {
        guard Self.valueFitsAWord else {
            var replaced: Value? = value
            swap(&state.lastDelivered, &replaced)
            return replaced
        }
        storeDelivered(value)
        return nil
    }

    /// Records a value that fits a word as the last delivered. Called by the holder of the role,
    /// with or without the lock.
    @inlinable
    func storeDelivered(_ value: Value) {
        var bits: UInt = 0
        withUnsafeMutableBytes(of: &bits) { $0.storeBytes(of: value, as: Value.self) }
        deliveredBits.store(bits, ordering: .releasing)
        if !hasDelivered.load(ordering: .relaxed) { hasDelivered.store(true, ordering: .releasing) }
    }

    /// Applies a transition under the lock: with a plain store from idle when every sender takes
    /// the lock, with a compare-and-exchange when one may take the role without it.
    @inlinable
    @discardableResult
    func applyHoldingLock(_ transition: (inout DeliveryState) -> DeliveryAction) -> DeliveryAction {
        sendsWithoutLock ? delivery.apply(transition) : delivery.applyHoldingLock(transition)
    }
}
