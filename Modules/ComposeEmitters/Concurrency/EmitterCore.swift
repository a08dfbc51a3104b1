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
    package init(label: String?, remembersValues: Bool, isLogged: Bool = true) {
        self.label = label
        self.remembersValues = remembersValues
        self.isLogged = isLogged
        sendsWithoutLock = !remembersValues || Self.valueFitsAWord
    }

    // MARK: The last delivered value

    /// Whether a value is plain bits that fit an atomic word (an `Int`, a `Double`, a `Bool`, a
    /// small enum or struct of them). Such a value can be remembered without the lock.
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

    // MARK: Sending

    /// Delivers `value` to every handler, or queues it if a delivery is in progress.
    ///
    /// - Complexity: O(*n*) handler calls; no allocation unless the value has to be queued.
    @inlinable
    package func send(_ value: Value) {
        if logSwitch.isOn, isLogged {
            EventLog.record(.send, source: logSource, payload: value)
        }
        if sendsWithoutLock {
            // Loaded before the role is taken (see "Sending without the lock").
            let epoch = cancellations.load(ordering: .relaxed)
            if delivery.sendWithoutLock() {
                if remembersValues { storeDelivered(value) }
                deliver(value, to: snapshot, epoch: epoch)
                return finishDelivering()
            }
        }
        sendHoldingLock(value)
    }

    /// ``send(_:)`` under the lock: when the handlers changed since the last delivery, somebody
    /// delivers or values wait, or the value does not fit a word.
    @inlinable @inline(never)
    func sendHoldingLock(_ value: Value) {
        // The snapshot is read in this scope only, before `finishDelivering` gives the role up
        // (see "Publication"). The value it replaces as the last delivered is released after the
        // lock: a release can run a deinit, which is user code and may read this emitter.
        var replaced: Value?
        // Set when the value was queued behind values waiting for nobody (queued for later) and
        // this thread took the role to deliver them all.
        var drains = false
        do {
            // The snapshot, its epoch and the retired buffers when this thread takes the role
            // and delivers at once; `nil` when it queued the value. (A tuple, not an enum: an
            // enum's payload is copied out with a retain more per send.)
            let start: (UnsafeBufferPointer<Entry?>, UInt, ContiguousArray<ContiguousArray<Entry?>>?)? = state.withLock { state in
                switch applyHoldingLock(DeliveryStateMachine.send) {
                case .deliverNow:
                    if remembersValues { replaced = recordDelivered(value, in: &state) }
                    // `nil` rather than an empty array when nothing is retired (nearly always), so
                    // the send releases nothing.
                    let retired = state.retired.isEmpty ? nil : takeRetired(&state)
                    return (publishEntries(&state), cancellations.load(ordering: .relaxed), retired)
                case .drain:
                    state.queue.append(value)
                    drains = true
                    return nil
                default:
                    state.queue.append(value)
                    return nil
                }
            }
            guard let (entries, epoch, retired) = start else {
                if drains { finishDelivering() }
                return  // otherwise the thread delivering delivers it
            }
            _ = retired  // freed here, by the holder of the role, outside the lock
            _ = consume replaced  // released before the handlers run
            deliver(value, to: entries, epoch: epoch)
        }
        finishDelivering()
    }

    /// The snapshot a send without the lock delivers to. Read by the holder of the role, which
    /// took it from a fresh state (see "Sending without the lock").
    @inlinable
    var snapshot: UnsafeBufferPointer<Entry?> {
        UnsafeBufferPointer(
            start: UnsafePointer(bitPattern: snapshotAddress.load(ordering: .relaxed)),
            count: snapshotCount.load(ordering: .relaxed))
    }

    /// The entries, for a delivery about to read them without the lock: where the buffer's
    /// elements are, not a reference to the buffer. Called under the lock by the holder of the
    /// delivery role.
    ///
    /// No reference is needed: by "Publication", a published buffer is neither written nor freed
    /// until its reader gave the role up (a replaced one is retired, and kept alive until then).
    /// None is taken: a retain and a release were a sixth of a send to one handler.
    ///
    /// It is also the snapshot sends without the lock deliver to (see "Sending without the lock"),
    /// so it is called in every hold of the lock that marks the snapshot fresh.
    @inlinable
    func publishEntries(_ state: inout State) -> UnsafeBufferPointer<Entry?> {
        state.published = true
        let entries = state.entries.withUnsafeBufferPointer { $0 }
        if sendsWithoutLock {
            snapshotAddress.store(UInt(bitPattern: entries.baseAddress), ordering: .relaxed)
            snapshotCount.store(entries.count, ordering: .relaxed)
        }
        return entries
    }

    /// Takes the retired buffers, for the caller to release after unlocking. Only a thread
    /// ordered after every delivery may call it: the holder of the delivery role, or anyone who
    /// saw the role free with an acquiring load while holding the lock.
    @inlinable
    func takeRetired(_ state: inout State) -> ContiguousArray<ContiguousArray<Entry?>> {
        guard !state.retired.isEmpty else { return [] }
        var retired: ContiguousArray<ContiguousArray<Entry?>> = []
        swap(&retired, &state.retired)
        hasRetired.store(false, ordering: .relaxed)
        return retired
    }

    /// Makes `state.entries` safe to write in place. Called under the lock before every change
    /// of the array.
    ///
    /// - Returns: Retired buffers, for the caller to release after unlocking.
    @inlinable
    func prepareEntriesForWriting(_ state: inout State) -> ContiguousArray<ContiguousArray<Entry?>> {
        // First, so that no send without the lock starts reading what is about to change.
        let write = delivery.apply(DeliveryStateMachine.handlersWillChange)
        guard state.published else { return [] }
        state.published = false
        guard write == .writeACopy else {
            // Nobody delivers: every read of any buffer happened before the holder gave the role up.
            return takeRetired(&state)
        }
        // A delivery may be reading the buffer right now: leave it alone, and alive.
        var fresh = ContiguousArray<Entry?>()
        fresh.reserveCapacity(state.entries.count + 1)
        fresh.append(contentsOf: state.entries)
        swap(&fresh, &state.entries)
        state.retired.append(fresh)
        // The retired handlers must not outlive the delivery (they may hold what holds this
        // emitter). Either the holder, giving up the role, sees this flag and frees them, or we
        // see the role given up: both sides write, then read, sequentially consistent.
        hasRetired.store(true, ordering: .sequentiallyConsistent)
        if !delivery.state.isDelivering { return takeRetired(&state) }
        return []
    }

    /// Frees the retired buffers unless somebody took the delivery role since its holder gave it
    /// up (then that holder frees them). Called by a former holder, right after giving the role up.
    @inlinable
    func releaseRetiredIfIdle() {
        let retired = state.withLock { state in
            delivery.isDelivering ? [] : takeRetired(&state)
        }
        _ = retired  // released here, outside the lock
    }

    /// Calls every live handler of `entries` (a published buffer, see ``publishEntries(_:)``)
    /// with `value`. No lock is held.
    @inlinable
    func deliver(_ value: Value, to entries: UnsafeBufferPointer<Entry?>, epoch: UInt) {
        guard let base = entries.baseAddress else { return }
        // An `Entry?` is one reference, and `nil` a null pointer (an optional class reference):
        // each entry is read as a pointer and used as a guaranteed reference, with no retain or
        // release, since the published buffer keeps every one alive for the whole loop.
        let raw = UnsafeRawPointer(base)
        for index in entries.indices {
            guard
                let pointer = raw.load(
                    fromByteOffset: index &* MemoryLayout<Entry?>.stride, as: UnsafeRawPointer?.self)
            else { continue }
            Unmanaged<Entry>.fromOpaque(pointer)._withUnsafeGuaranteedRef { entry in
                if cancellations.load(ordering: .acquiring) != epoch, entry.token.isCancelled { return }
                entry.handler(value)
            }
        }
    }

    /// The next queued delivery, taken from the backlog.
    @usableFromInline
    enum Next {
        case broadcast(Value, UnsafeBufferPointer<Entry?>, epoch: UInt)
        case replay(Value, @Sendable (Value) -> Void)
    }

    /// Called by the holder of the delivery role when it has nothing in hand: delivers the
    /// backlog, then gives the role up.
    ///
    /// The common case, nothing sent meanwhile, is inlined into the caller: one
    /// compare-and-exchange from "delivering, nothing waits" to idle, without loading the word
    /// first; anything else goes through ``deliverBacklogAndFinish()``.
    @inlinable @inline(__always)
    func finishDelivering() {
        guard delivery.giveUpIfNothingWaits() else { return deliverBacklogAndFinish() }
        if hasRetired.load(ordering: .sequentiallyConsistent) { releaseRetiredIfIdle() }
    }

    /// ``finishDelivering()`` when values may wait: delivers them, then gives the role up.
    /// Specialized for the caller's type, but kept out of line: it is the uncommon path.
    @inlinable @inline(never)
    func deliverBacklogAndFinish() {
        while true {
            guard delivery.apply(DeliveryStateMachine.finish) == .takeNext else {
                if hasRetired.load(ordering: .sequentiallyConsistent) { releaseRetiredIfIdle() }
                return
            }
            // `next` (and the snapshot in it) is done with at the end of each turn, before the
            // role is given up at the top of the next (see "Publication").
            var replaced: Value?
            let (next, retired): (Next?, ContiguousArray<ContiguousArray<Entry?>>) = state.withLock { state in
                (nextDelivery(&state, replacing: &replaced), takeRetired(&state))
            }
            _ = retired
            replaced = nil  // released outside the lock (a deinit is user code)
            switch next {
            case .broadcast(let value, let entries, let epoch)?:
                deliver(value, to: entries, epoch: epoch)
            case .replay(let value, let handler)?:
                handler(value)
            case nil:
                continue
            }
        }
    }

    /// Takes the next queued delivery. Called under the lock by the holder of the delivery role,
    /// which was told that values wait.
    ///
    /// - Parameter replaced: Receives the value this delivery replaces as the last delivered,
    ///   for the caller to release after unlocking.
    /// - Returns: `nil` if every waiting registration was cancelled since, or wanted no replay.
    @inlinable
    func nextDelivery(_ state: inout State, replacing replaced: inout Value?) -> Next? {
        // `tookNext` marks the snapshot fresh: it is published in the same hold.
        let entries = publishEntries(&state)
        // `isEmpty` first: popping is a mutation, which checks the deque's uniqueness.
        while !state.replays.isEmpty {
            let registration = state.replays.removeFirst()
            delivery.apply(DeliveryStateMachine.tookNext)
            // The token may have been cancelled since it was queued.
            guard !registration.token.isCancelled, let entry = state.entries[registration.token.index] else { continue }
            let current = lastDelivered(in: &state)
            registration.whileRegistering?(current)
            guard registration.replaysCurrent, let current else { continue }
            return .replay(current, entry.handler)
        }
        guard !state.queue.isEmpty else { return nil }
        let value = state.queue.removeFirst()
        delivery.apply(DeliveryStateMachine.tookNext)
        if remembersValues { replaced = recordDelivered(value, in: &state) }
        return .broadcast(value, entries, epoch: cancellations.load(ordering: .relaxed))
    }

    /// Queues `value` without delivering it.
    ///
    /// For a caller that must deliver values in the order its own lock assigns them (a store
    /// notifies in commit order): call this under that lock, then ``deliverBacklog()`` after
    /// releasing it. Nesting is safe: this lock is never held while taking another.
    ///
    /// - Precondition: The core remembers no value (``ValueEmitter/lastValue`` is the last value
    ///   queued, or else the last delivered: a value queued for later is not sent).
    @inlinable
    package func enqueue(_ value: Value) {
        assert(!remembersValues, "enqueue(_:) is for cores that remember no value")
        state.withLock { state in
            state.queue.append(value)
            applyHoldingLock(DeliveryStateMachine.enqueuedForLater)
        }
    }

    /// Delivers what ``enqueue(_:)`` queued, unless another thread is delivering (then it will).
    @inlinable
    package func deliverBacklog() {
        if delivery.apply(DeliveryStateMachine.claim) == .drain { finishDelivering() }
    }

    /// Whether any handler is registered; a relaxed read, without the lock.
    @inlinable
    package var hasSubscribers: Bool {
        live.load(ordering: .relaxed) > 0
    }

    // MARK: Registering

    /// Adds `handler` after every existing handler.
    ///
    /// - Parameters:
    ///   - replayCurrent: Deliver the current value (the last one whose delivery started) to the
    ///     new handler first, through the same serial delivery as every other value.
    ///   - whileRegistering: Internal bookkeeping run under the lock with the current value,
    ///     before any value reaches the new handler. Never user code. When nobody delivers, it
    ///     runs now, atomically with the registration; otherwise the holder of the role, which
    ///     may be writing the current value, runs it before it delivers anything more.
    /// - Returns: The subscription that removes the handler.
    /// - Complexity: Amortized O(1).
    @inlinable
    package func register(
        _ handler: @escaping @Sendable (Value) -> Void,
        replayCurrent: Bool = false,
        whileRegistering: ((Value?) -> Void)? = nil
    ) -> Token {
        // The closure captures nothing, so it costs no allocation, and it is formed here, where
        // `Value` is known, so cancelling runs specialized code.
        let handle = lazyHandle.get {
            RegistryHandle(registry: self) { core, token in
                unsafeDowncast(core, to: EmitterCore<Value>.self).remove(token)
            }
        }
        let token = Token(handle: handle)
        let entry = Entry(handler: handler, token: token)
        // Retired buffers are released after the lock is dropped.
        let (start, retired): (Replay, ContiguousArray<ContiguousArray<Entry?>>) = state.withLock { state in
            let retired = prepareEntriesForWriting(&state)
            token.index = state.entries.count
            state.entries.append(entry)
            live.add(1, ordering: .relaxed)
            guard replayCurrent || whileRegistering != nil else { return (.none, retired) }
            // The current value is the holder's to write: take the role to read it, or leave
            // the registration to whoever holds it.
            switch applyHoldingLock(DeliveryStateMachine.send) {
            case .deliverNow:
                // The transition marked the snapshot fresh: publish it in this hold.
                _ = publishEntries(&state)
                let current = lastDelivered(in: &state)
                whileRegistering?(current)
                guard replayCurrent, let current else { return (.finish, retired) }
                return (.now(current), retired)
            case let action:
                // Counted already; before the values queued for later, since it is older.
                state.replays.append(
                    PendingRegistration(token: token, replaysCurrent: replayCurrent, whileRegistering: whileRegistering))
                return (action == .drain ? .finish : .none, retired)
            }
        }
        _ = retired
        switch start {
        case .now(let current):
            handler(current)
            finishDelivering()
        case .finish:
            finishDelivering()
        case .none:
            break
        }
        return token
    }

    /// What a registration does after unlocking.
    @usableFromInline
    enum Replay {
        /// It took the role: call the new handler with the current value, then deliver the queue.
        case now(Value)
        /// It took the role: deliver what waits, and give the role up.
        case finish
        /// Nothing: no replay, or the thread delivering delivers it.
        case none
    }

    /// Removes a cancelled token's entry.
    ///
    /// - Complexity: Amortized O(1).
    @inlinable
    func remove(_ token: Token) {
        // The removed handler (and, after compaction, the old array) is released after the lock
        // is dropped: releasing a closure can run a deinit, which is user code.
        let released: (Entry?, ContiguousArray<Entry?>?, ContiguousArray<ContiguousArray<Entry?>>) = state.withLock { state in
            let index = token.index
            guard index < state.entries.count, let entry = state.entries[index], entry.token === token else {
                return (nil, nil, [])
            }
            let retired = prepareEntriesForWriting(&state)
            state.entries[index] = nil
            state.tombstones += 1
            live.subtract(1, ordering: .relaxed)
            cancellations.add(1, ordering: .releasing)
            guard state.tombstones > 16, state.tombstones * 2 > state.entries.count else {
                return (entry, nil, retired)
            }
            return (entry, Self.compact(&state), retired)
        }
        _ = released
    }

    /// Drops the tombstones, keeping order, and renumbers the tokens.
    ///
    /// - Returns: The old array, to be released by the caller after unlocking.
    @inlinable
    static func compact(_ state: inout State) -> ContiguousArray<Entry?> {
        var live = ContiguousArray<Entry?>()
        live.reserveCapacity(state.entries.count - state.tombstones)
        for case let entry? in state.entries {
            entry.token.index = live.count
            live.append(entry)
        }
        state.tombstones = 0
        swap(&live, &state.entries)
        return live
    }

    // MARK: Inspection

    /// The number of live handlers.
    package var subscriberCount: Int {
        state.withLock { $0.entries.count - $0.tombstones }
    }

    /// The value most recently sent (``ValueEmitter/lastValue``): the last one queued, or else
    /// the last one whose delivery started (every queued value was sent after it).
    var lastSent: Value? {
        state.withLock { state in state.queue.last ?? lastDelivered(in: &state) }
    }

    /// How this core is named in the event log.
    @usableFromInline
    var logSource: String {
        label ?? "\(Value.self == Void.self ? "SignalEmitter" : "ValueEmitter<\(Value.self)>")@\(ObjectIdentifier(self))"
    }
}
