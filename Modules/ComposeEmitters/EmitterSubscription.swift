import Synchronization

/// A handle to an observer registered on an emitter; cancelling it stops the observer.
///
/// Subscribing with `+=`, `~+=`, `!+=` or ``Emitter/subscribe(_:)`` returns one. The result is
/// discardable: a subscription does **not** cancel itself when the handle is released, it lives
/// until it is cancelled, until the ``ObservationScope`` it was made in ends, or until its emitter
/// is deallocated. This is what lets a component write `logIn += { ... }` in its `observers` and
/// have the host cancel everything when the component goes away.
///
/// ```swift
/// let subscription = emitter += { value in print(value) }
/// subscription.cancel()  // the handler is never called again
/// ```
///
/// ## Guarantees
/// - `cancel()` is idempotent and thread-safe.
/// - Once `cancel()` has returned, no send that starts afterwards reaches the handler: any
///   `cancel()`, a later one made while the first is still under way on another thread too. (A
///   subscription made with ``init(onCancel:)`` promises what its `onCancel` does: a later
///   `cancel()` of it returns at once.)
/// - A handler cancelled while a value is being delivered (by itself, or by another handler) is
///   not called for the rest of that delivery; one cancelled by another thread meanwhile may still
///   be called once by the delivery in progress (the delivering thread looks at the cancellation
///   before each call, without waiting for the canceller).
/// - A handler written on an actor (main-actor code) is not called at all once `cancel()` has
///   returned, even with a value sent before: `cancel()` drops what waits for the actor, and, made
///   on another thread while the handler runs there, waits for that call to return. A handler
///   must therefore not wait for a thread that cancels it. This holds for every `cancel()` of the
///   subscription, not only the first: a second one, made while the first is still waiting, waits
///   too (so does one of a subscription that bundles it, made with ``init(_:)``). Handlers on two
///   actors that cancel each other's subscriptions at once do not wait for each other: the second
///   `cancel()` returns at once, and the call in progress of the handler it cancels is its last
///   (see ``ObservationScope/end()``).
public class EmitterSubscription: @unchecked Sendable, Hashable, CustomStringConvertible {
    /// ``Progress/cancelled`` once `cancel()` has been called, and ``Progress/done`` once the
    /// first call has done its work (the registration is gone).
    @usableFromInline
    let progress = Atomic<UInt8>(0)
    /// One word for what cancelling needs: the ``CancelAction`` of `init(onCancel:)`, or what a
    /// subclass keeps here (a token's registry handle). One word rather than an optional closure
    /// (two), because every subscriber of every emitter pays for this object.
    @usableFromInline
    let payload: AnyObject?

    /// Creates a subscription that runs `onCancel` once, the first time it is cancelled.
    ///
    /// Use this to build your own ``Emitter``: return a subscription that cancels the
    /// registrations your emitter made upstream. A later ``cancel()`` returns at once, even while
    /// `onCancel` is still running on another thread.
    ///
    /// - Parameter onCancel: Called once, on the thread that first calls ``cancel()``.
    public init(onCancel: @escaping @Sendable () -> Void) {
        self.payload = CancelAction(onCancel, again: nil)
    }

    /// A subscription that cancels all of `subscriptions` together.
    ///
    /// Every ``cancel()`` of the result cancels each of `subscriptions`, in order, so that one
    /// made while another thread's is still under way returns no sooner than cancelling them
    /// does (for a handler on an actor, not before its call in progress has returned).
    ///
    /// - Parameter subscriptions: Cancelled in order when the result is cancelled.
    public convenience init(_ subscriptions: [EmitterSubscription]) {
        let cancelAll: @Sendable () -> Void = { for subscription in subscriptions { subscription.cancel() } }
        self.init(
            payload: CancelAction(cancelAll, again: cancelAll, isSettled: { subscriptions.allSatisfy(\.isSettled) }))
    }

    /// A subscription for `registration` that does more the first time: every ``cancel()``
    /// cancels `registration` (so one made while another thread's first is still under way
    /// returns no sooner than the registration is gone), and the first then runs `afterFirst`.
    package convenience init(
        cancelling registration: EmitterSubscription,
        thenOnce afterFirst: @escaping @Sendable () -> Void
    ) {
        let cancelRegistration: @Sendable () -> Void = { registration.cancel() }
        self.init(
            payload: CancelAction(
                {
                    registration.cancel()
                    afterFirst()
                }, again: cancelRegistration, isSettled: { registration.isSettled }))
    }

    /// For subclasses that release their registration in ``didCancel(first:)``.
    @usableFromInline
    init() {
        self.payload = nil
    }

    /// For subclasses that keep one object in ``payload`` and override ``didCancel(first:)``,
    /// and for a ``CancelAction`` whose `again` runs at every later cancel.
    @usableFromInline
    init(payload: AnyObject) {
        self.payload = payload
    }

    /// The bits of ``progress``.
    @usableFromInline
    enum Progress {
        @usableFromInline static let cancelled: UInt8 = 1
        @usableFromInline static let done: UInt8 = 2
    }

    /// Whether ``cancel()`` has been called.
    public var isCancelled: Bool {
        progress.load(ordering: .acquiring) & Progress.cancelled != 0
    }

    /// Whether the subscription is cancelled and a ``cancel()`` now would return at once: the
    /// first `cancel()` has done its work (a `cancel()` still on its way to the emitter's lock
    /// has not), and no call of a handler on an actor is in progress or can start. An
    /// ``ObservationScope`` lets go of a cancelled subscription only once it is settled, so that
    /// its `end()` still does what a `cancel()` under way has not finished.
    var isSettled: Bool {
        guard progress.load(ordering: .acquiring) & Progress.done != 0 else { return false }
        return isSettledOnceDone
    }

    /// Whether a ``cancel()`` now would return at once, given that the first has done its work;
    /// subclasses whose cancellation waits for a handler override it.
    var isSettledOnceDone: Bool {
        guard let payload, let action = payload as? CancelAction else { return true }
        return action.isSettled?() ?? true
    }

    /// Stops the observer. Idempotent and thread-safe.
    ///
    /// - Complexity: Amortized O(1) for a subscription to a ``SignalEmitter`` or ``ValueEmitter``.
    public final func cancel() {
        let first = progress.bitwiseOr(Progress.cancelled, ordering: .acquiringAndReleasing).oldValue == 0
        didCancel(first: first)
        if first { progress.bitwiseOr(Progress.done, ordering: .releasing) }
    }

    /// Called by every ``cancel()``: `first` the first time, when it releases whatever the
    /// subscription holds; later (maybe while the first is still under way on another thread) a
    /// subscription whose cancellation waits for a handler makes these wait for it too.
    /// Subclasses that put something else in ``payload`` override it.
    func didCancel(first: Bool) {
        guard let payload else { return }
        let action = unsafeDowncast(payload, to: CancelAction.self)
        if first { action.body() } else { action.again?() }
    }

    public static func == (lhs: EmitterSubscription, rhs: EmitterSubscription) -> Bool {
        lhs === rhs
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(self))
    }

    public var description: String {
        "EmitterSubscription(\(isCancelled ? "cancelled" : "active"))"
    }
}

/// The closure of a subscription made with `EmitterSubscription(onCancel:)`, boxed.
@usableFromInline
final class CancelAction: Sendable {
    let body: @Sendable () -> Void
    /// What every later cancel runs, if anything.
    let again: (@Sendable () -> Void)?
    /// Whether `again` would return at once (see ``EmitterSubscription/isSettled``); `nil` when it
    /// always does.
    let isSettled: (@Sendable () -> Bool)?

    init(
        _ body: @escaping @Sendable () -> Void,
        again: (@Sendable () -> Void)?,
        isSettled: (@Sendable () -> Bool)? = nil
    ) {
        self.body = body
        self.again = again
        self.isSettled = isSettled
    }
}
