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
/// The state (``DeliveryState``: whether somebody delivers, whether values wait) lives with the
/// queue and the handlers under their owner's lock (``LockedState``). Each function here takes the
/// state, changes it, and returns what the thread must do once it has released the lock: deliver
/// now, queue, deliver what is queued, or nothing. Handlers are called after the lock is
/// released, never under it. The functions are pure, so tests drive them synchronously through
/// every interleaving that matters, without threads.
@usableFromInline
package enum DeliveryStateMachine {
    /// A sender arrives with a value.
    ///
    /// - Returns: ``DeliveryAction/deliverNow``: the sender took the role; it delivers the value
    ///   after unlocking, then calls ``finish(_:)``. ``DeliveryAction/enqueue``: somebody delivers
    ///   (or values wait, queued for later by a caller that orders them under its own lock): the
    ///   sender queues the value, then applies ``enqueued(_:)``.
    @inlinable
    package static func send(_ state: inout DeliveryState) -> DeliveryAction {
        if !state.isDelivering && !state.hasPending {
            state.isDelivering = true
            return .deliverNow
        }
        return .enqueue
    }

    /// A value was queued. ``DeliveryAction/drain`` when nobody held the role (the queue is then
    /// this thread's to deliver: after unlocking, it calls ``finish(_:)``);
    /// ``DeliveryAction/done`` otherwise (the holder of the role delivers it before giving the
    /// role up).
    @inlinable
    package static func enqueued(_ state: inout DeliveryState) -> DeliveryAction {
        state.hasPending = true
        if state.isDelivering { return .done }
        state.isDelivering = true
        return .drain
    }

    /// A value was queued by a caller that orders deliveries by a lock of its own (a store queues
    /// a commit's notice under the store's lock), and that delivers after releasing it, with
    /// ``claim(_:)``.
    @inlinable
    package static func enqueuedForLater(_ state: inout DeliveryState) {
        state.hasPending = true
    }

    /// Somebody wants queued values delivered: the thread that finds nobody delivering takes the
    /// role (``DeliveryAction/drain``: after unlocking, it calls ``finish(_:)``); otherwise
    /// ``DeliveryAction/done`` (the holder of the role delivers them, or nothing waits).
    @inlinable
    package static func claim(_ state: inout DeliveryState) -> DeliveryAction {
        if state.isDelivering || !state.hasPending { return .done }
        state.isDelivering = true
        return .drain
    }

    /// The holder of the role has nothing in hand: ``DeliveryAction/takeNext`` (it takes the next
    /// value, under the same lock, then applies ``tookNext(_:queueIsEmpty:)`` and delivers it
    /// after unlocking), or ``DeliveryAction/idle`` (it gave the role up).
    @inlinable
    package static func finish(_ state: inout DeliveryState) -> DeliveryAction {
        precondition(state.isDelivering, "finish without the delivery role")
        if state.hasPending { return .takeNext }
        state.isDelivering = false
        return .idle
    }

    /// The holder of the role took the next value.
    @inlinable
    package static func tookNext(_ state: inout DeliveryState, queueIsEmpty: Bool) {
        if queueIsEmpty { state.hasPending = false }
    }

    /// A subscriber asks for the current value (`withCurrent`): delivered at once by the
    /// subscriber if nobody delivers and nothing waits (it takes the role:
    /// ``DeliveryAction/deliverNow``), queued before anything else otherwise
    /// (``DeliveryAction/enqueue``: the holder of the role delivers it first).
    @inlinable
    package static func replay(_ state: inout DeliveryState) -> DeliveryAction {
        if !state.isDelivering && !state.hasPending {
            state.isDelivering = true
            return .deliverNow
        }
        state.hasPending = true
        return .enqueue
    }
}

/// What a thread must do, after releasing the lock, following a transition of
/// ``DeliveryStateMachine``.
@usableFromInline
package enum DeliveryAction: Equatable, Sendable {
    /// Deliver the value at once: the thread holds the role.
    case deliverNow
    /// Queue the value (under the lock).
    case enqueue
    /// Deliver what is queued: the thread holds the role.
    case drain
    /// Nothing more to do.
    case done
    /// Take the next queued value (under the lock), then deliver it.
    case takeNext
    /// The role was given up.
    case idle
}

/// The state of ``DeliveryStateMachine``, kept under its owner's lock.
@usableFromInline
package struct DeliveryState: Equatable, Sendable, CustomStringConvertible {
    /// Whether a thread holds the delivery role.
    @usableFromInline
    package var isDelivering = false
    /// Whether values wait in the queue.
    @usableFromInline
    package var hasPending = false

    /// Nobody delivers, nothing waits.
    package static let idle = DeliveryState()

    @inlinable
    package init(isDelivering: Bool = false, hasPending: Bool = false) {
        self.isDelivering = isDelivering
        self.hasPending = hasPending
    }

    @usableFromInline
    package var description: String {
        switch (isDelivering, hasPending) {
        case (false, false): "idle"
        case (true, false): "delivering"
        case (false, true): "pending"
        case (true, true): "delivering|pending"
        }
    }
}
