/// The delivery protocol of Compose's serial deliveries (every emitter, and every ``Relay``), as a
/// pure state machine over one word.
///
/// A delivery hands values, one at a time, in order, to handlers that are never called
/// concurrently with themselves. One thread at a time holds the *delivery role*: the thread that
/// sends while nobody delivers takes it and delivers at once, on its own stack; a value sent while
/// somebody delivers (another thread, or a handler sending again) is queued, and the thread holding
/// the role delivers it, in order, before it gives the role up. No thread ever waits for a
/// delivery to end, so a reentrant or concurrent send cannot deadlock.
///
/// ## The word
/// The whole protocol lives in one word that threads change with compare-and-swap:
/// - `locked`: a thread holds the bookkeeping (the queue, the handlers, the values remembered). Held for a few instructions, never while a handler runs; others spin, then
///   yield. While it is held, nobody else changes the word, so its holder writes the next word
///   with a plain store.
/// - `delivering`: a thread holds the delivery role.
/// - `pending`: the queue holds values nobody has delivered yet.
///
/// A send that finds the word idle costs two compare-and-swaps and one store: take the lock and
/// the role, unlock keeping the role, and give the role up.
///
/// The lock bit is a spin lock, which suits what it guards: a few instructions, never user code,
/// never a wait. A thread that finds it held spins briefly, then yields the processor, so a
/// holder that was preempted gets to run.
///
/// ## Actions
/// Each function takes the word a thread read and returns the word it should write, with what
/// it must do once its write succeeded; ``DeliveryAction/wait`` means "another thread holds the
/// lock: read the word again". The functions are pure, so tests drive them synchronously through
/// every interleaving that matters, without threads.
@usableFromInline
package enum DeliveryStateMachine {
    /// A sender arrives with a value.
    ///
    /// - Returns: ``DeliveryAction/deliverNow`` (the sender took the lock and the role: record
    ///   the value, take the handlers, unlock with ``startedDelivering(_:)``, deliver, then
    ///   ``finish(_:)``); ``DeliveryAction/enqueue`` (the sender took the lock only: queue the
    ///   value and unlock with ``enqueued(_:)``); or ``DeliveryAction/wait``.
    @inlinable
    package static func send(_ state: DeliveryState) -> (DeliveryState, DeliveryAction) {
        if state.isLocked { return (state, .wait) }
        if !state.isDelivering && !state.hasPending {
            return (state.with(.locked).with(.delivering), .deliverNow)
        }
        // Somebody delivers, or values wait (queued by a commit, not yet claimed): queue behind
        // them, so values leave in the order they were sent.
        return (state.with(.locked), .enqueue)
    }

    /// The word after the sender that got ``DeliveryAction/deliverNow`` has set up its delivery:
    /// it keeps the role and releases the lock.
    @inlinable
    package static func startedDelivering(_ state: DeliveryState) -> DeliveryState {
        state.without(.locked)
    }

    /// The word after a value was queued under the lock, and whether the thread that queued it
    /// must now deliver the queue: ``DeliveryAction/drain`` when nobody held the role (the queue
    /// then becomes this thread's to deliver), ``DeliveryAction/done`` otherwise (the holder of
    /// the role delivers it before giving the role up).
    @inlinable
    package static func enqueued(_ state: DeliveryState) -> (DeliveryState, DeliveryAction) {
        let queued = state.without(.locked).with(.pending)
        if state.isDelivering { return (queued, .done) }
        return (queued.with(.delivering), .drain)
    }

    /// The word after a value was queued under the lock by a caller that orders deliveries by a
    /// lock of its own (a store queues a commit's notice under the store's lock) and delivers
    /// after releasing it, with ``claim(_:)``.
    @inlinable
    package static func enqueuedForLater(_ state: DeliveryState) -> DeliveryState {
        state.without(.locked).with(.pending)
    }

    /// Somebody wants queued values delivered: the thread that finds nobody delivering takes the
    /// role (``DeliveryAction/drain``: then ``finish(_:)``); otherwise ``DeliveryAction/done``
    /// (the holder of the role delivers them, or nothing waits).
    @inlinable
    package static func claim(_ state: DeliveryState) -> (DeliveryState, DeliveryAction) {
        if state.isLocked { return (state, .wait) }
        if state.isDelivering || !state.hasPending { return (state, .done) }
        return (state.with(.delivering), .drain)
    }

    /// The holder of the role has nothing in hand.
    ///
    /// - Returns: ``DeliveryAction/takeNext`` (it took the lock: take the next value with
    ///   ``tookNext(_:queueIsEmpty:)``, deliver it, then finish again); ``DeliveryAction/idle``
    ///   (it gave the role up); or ``DeliveryAction/wait``.
    @inlinable
    package static func finish(_ state: DeliveryState) -> (DeliveryState, DeliveryAction) {
        precondition(state.isDelivering, "finish without the delivery role")
        if state.isLocked { return (state, .wait) }
        if state.hasPending { return (state.with(.locked), .takeNext) }
        return (state.without(.delivering), .idle)
    }

    /// The word after the holder of the role took the next value under the lock.
    @inlinable
    package static func tookNext(_ state: DeliveryState, queueIsEmpty: Bool) -> DeliveryState {
        let unlocked = state.without(.locked)
        return queueIsEmpty ? unlocked.without(.pending) : unlocked
    }

    /// A thread wants the bookkeeping (to subscribe, cancel, read the last value):
    /// ``DeliveryAction/locked`` (it took the lock; it writes the word back without it, with
    /// ``unlocked(_:)``) or ``DeliveryAction/wait``.
    ///
    /// A handler that a delivery is reading is never changed in place: the delivery holds its
    /// own reference to the handlers, so a change made meanwhile copies them.
    @inlinable
    package static func lock(_ state: DeliveryState) -> (DeliveryState, DeliveryAction) {
        if state.isLocked { return (state, .wait) }
        return (state.with(.locked), .locked)
    }

    /// The word after a thread that took the lock with ``lock(_:)`` is done.
    @inlinable
    package static func unlocked(_ state: DeliveryState) -> DeliveryState {
        state.without(.locked)
    }

    /// A subscriber asks for the current value (`withCurrent`) under the lock: delivered at once
    /// by the subscriber if nobody delivers and nothing waits (it takes the role:
    /// ``DeliveryAction/deliverNow``), queued before anything else otherwise
    /// (``DeliveryAction/enqueue``: the holder of the role delivers it first).
    @inlinable
    package static func replay(_ state: DeliveryState) -> (DeliveryState, DeliveryAction) {
        precondition(state.isLocked, "replay without the lock")
        if !state.isDelivering && !state.hasPending { return (state.with(.delivering), .deliverNow) }
        return (state.with(.pending), .enqueue)
    }
}

/// What a thread must do after a transition of ``DeliveryStateMachine``.
@usableFromInline
package enum DeliveryAction: Equatable, Sendable {
    /// Another thread holds the lock: read the word again (after a pause).
    case wait
    /// Deliver the value at once: the thread holds the role.
    case deliverNow
    /// Queue the value: the thread holds the lock.
    case enqueue
    /// Deliver what is queued: the thread holds the role.
    case drain
    /// Nothing more to do.
    case done
    /// Take the next queued value: the thread holds the lock and the role.
    case takeNext
    /// The role was given up.
    case idle
    /// The thread holds the lock.
    case locked
}

/// The word of ``DeliveryStateMachine``.
@usableFromInline
package struct DeliveryState: Equatable, Sendable, CustomStringConvertible {
    @usableFromInline
    package var rawValue: UInt

    @inlinable
    package init(rawValue: UInt) {
        self.rawValue = rawValue
    }

    /// Nobody delivers, nothing waits.
    @usableFromInline
    package static let idle = DeliveryState(rawValue: 0)

    /// A flag of the word.
    @usableFromInline
    package struct Flag: Sendable {
        @usableFromInline
        package let bit: UInt
        @inlinable init(_ bit: UInt) { self.bit = bit }
    }

    @usableFromInline
    package static let lockedFlag = Flag(1)
    @usableFromInline
    package static let deliveringFlag = Flag(2)
    @usableFromInline
    package static let pendingFlag = Flag(4)

    @inlinable package var isLocked: Bool { rawValue & Self.lockedFlag.bit != 0 }
    @inlinable package var isDelivering: Bool { rawValue & Self.deliveringFlag.bit != 0 }
    @inlinable package var hasPending: Bool { rawValue & Self.pendingFlag.bit != 0 }

    @inlinable
    package func with(_ flag: Flag) -> DeliveryState {
        DeliveryState(rawValue: rawValue | flag.bit)
    }

    @inlinable
    package func without(_ flag: Flag) -> DeliveryState {
        DeliveryState(rawValue: rawValue & ~flag.bit)
    }

    @usableFromInline
    package var description: String {
        let flags = [(isLocked, "locked"), (isDelivering, "delivering"), (hasPending, "pending")]
            .filter(\.0).map(\.1)
        return flags.isEmpty ? "idle" : flags.joined(separator: "|")
    }
}

extension DeliveryState.Flag {
    @inlinable package static var locked: Self { DeliveryState.lockedFlag }
    @inlinable package static var delivering: Self { DeliveryState.deliveringFlag }
    @inlinable package static var pending: Self { DeliveryState.pendingFlag }
}
