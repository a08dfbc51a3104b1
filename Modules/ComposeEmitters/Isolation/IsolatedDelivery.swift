import ComposeMachinery
import DequeModule
import Synchronization

/// Calls a handler written in an actor's code on that actor, in the order its values were sent.
///
/// The emitter calls ``deliver(_:)`` on its delivering thread, as for any handler. Then:
/// - a **main-actor** handler, sent to on the main actor with nothing of its own still queued,
///   is called right there, before `send` returns, as a button's handler expects;
/// - otherwise the value is queued and one task at a time, on the handler's actor, calls the
///   handler with every queued value in order. A value sent on the main actor while earlier
///   values wait for that task is queued behind them, and the main actor delivers them all there, so
///   a handler never hears a later value before an earlier one.
///
/// Once the subscription is cancelled, values queued before are dropped: the handler is not called
/// with them after `cancel()` returns. A value handed over *after* the cancellation is still
/// delivered: the emitter decided to deliver it (`once()` cancels its subscription, then delivers
/// its one value). The handler is never called concurrently with itself, and never under the lock.
///
/// The delivery knows the cancellation through a ``SubscriptionLiveness`` it does not keep alive:
/// the registration's token, or a store's observer. Not alive, because the registration holds the
/// handler, which holds this delivery: a strong reference back would be a cycle that outlives a
/// store. A registration that is gone was removed, so it counts as cancelled. The reference is
/// `unowned`, asked with `swift_tryRetain` as `LightWeakReference` does (that type takes a class,
/// not this protocol's existential), not `weak`: a weak reference gives its object a side table
/// for good (an allocation of 32 bytes, 48 with the C allocator's header and rounding, a
/// subscriber, and every retain and release of the token or observer through the runtime's slow
/// path from then on).
@usableFromInline
package final class IsolatedDelivery<Value: Sendable>: Sendable {
    @usableFromInline
    struct State {
        /// The values to deliver, each with whether the subscription was live when it was queued
        /// (a value queued while live is dropped if the subscription is cancelled before it runs).
        @usableFromInline var queue = Deque<(value: Value, queuedLive: Bool)>()
        /// A task has been started to drain on the actor and has not begun yet.
        @usableFromInline var isScheduled = false
    }

    @usableFromInline let isMainActor: Bool
    /// Two facts a main-actor sender reads without the lock: somebody (main-actor code that
    /// sent, or the actor's task) is calling the handler, ``draining``, and values wait in the
    /// queue, ``queued``. `queued` changes only under the lock, with the queue. `draining` is
    /// taken under the lock by whoever drains the queue, or without it by a direct call, which
    /// exchanges the word from 0 (nobody calling, nothing waiting) to `draining` and back, so it
    /// fails, and goes through the queue, whenever either fact holds. Declared next to
    /// `isMainActor`: the two bytes share a word.
    @usableFromInline let flags = Atomic<UInt8>(0)
    /// The handler as a nonisolated function: called only on its actor (see ``IsolatedHandler``).
    @usableFromInline let call: @Sendable (Value) -> Void
    /// The handler called as Swift calls an `@isolated(any)` function, hopping to its actor;
    /// `nil` when `call` is the `@isolated(any)` handler itself, reinterpreted (see
    /// ``init(_:isolation:)``), which is then awaited.
    private let asyncCall: (@Sendable (Value) async -> Void)?
    @usableFromInline let state = LockedState(State())
    /// What says whether the registration was cancelled, once attached (`nil` before: nothing
    /// can have cancelled yet). `unowned` keeps its memory, not its life, so that its counts can
    /// be read; it is read only after `swift_tryRetain` on ``livenessAddress`` has succeeded (see
    /// ``isCancelled()``). Stored properties of this class rather than a box of their own (an
    /// allocation per isolated handler), read and written only under `state`'s lock, like the
    /// rest of the bookkeeping.
    nonisolated(unsafe) private unowned(safe) var liveness: (any SubscriptionLiveness)?
    /// The address of ``liveness``, for `swift_tryRetain`.
    nonisolated(unsafe) private var livenessAddress: UnsafeMutableRawPointer?

    @usableFromInline
    init(
        isolation: any Actor,
        call: @escaping @Sendable (Value) -> Void,
        asyncCall: @escaping @Sendable (Value) async -> Void
    ) {
        self.isMainActor = isolation === MainActor.shared
        self.call = call
        self.asyncCall = asyncCall
    }

    /// The delivery of `handler`, isolated to `isolation`: it keeps the handler once, as
    /// ``call``, and awaits it through the same function value, without a closure (and its
    /// allocation) of its own for that.
    @usableFromInline
    init(_ handler: @escaping @isolated(any) @Sendable (Value) -> Void, isolation: any Actor) {
        self.isMainActor = isolation === MainActor.shared
        self.call = IsolatedHandler.synchronous(handler)
        self.asyncCall = nil
    }

    @usableFromInline
    func attach(_ liveness: any SubscriptionLiveness) {
        state.withLock { _ in
            self.liveness = liveness
            self.livenessAddress = Unmanaged<AnyObject>.passUnretained(liveness).toOpaque()
        }
    }

    /// Whether the registration was cancelled: a registration that is gone (its deinitialization
    /// has begun) was removed. Call it under `state`'s lock.
    private func isCancelled() -> Bool {
        guard let livenessAddress else { return false }
        guard let retained = SwiftRuntime.tryRetain(livenessAddress) else { return true }
        defer { Unmanaged<AnyObject>.fromOpaque(retained).release() }
        // Alive and retained: loading the unowned reference is safe.
        return liveness.unsafelyUnwrapped.isCancelled
    }

    /// The bit of ``flags`` that says somebody is calling the handler.
    @usableFromInline static var draining: UInt8 { 1 }
    /// The bit of ``flags`` that says values wait in the queue.
    @usableFromInline static var queued: UInt8 { 2 }

    private enum Action {
        case none
        case drainHere
        case schedule
    }

    /// Delivers `value`: at once on the main actor for a main-actor handler with nothing queued,
    /// otherwise through the actor's queue.
    ///
    /// Inlinable, so that the common case of an app (a main-actor handler, sent to on the main
    /// actor, idle) runs specialized code: a compare-and-exchange of ``flags`` to take the call,
    /// the call, and one to give it back, with no lock; or, when values were queued while the
    /// handler ran (by another thread, or the handler itself), delivering them, in order.
    @inlinable
    func deliver(_ value: Value) {
        let onMainActor = isMainActor && MainActorContext.isCurrent
        if onMainActor,
            flags.compareExchange(expected: 0, desired: Self.draining, ordering: .acquiringAndReleasing).exchanged
        {
            call(value)
            if !flags.compareExchange(expected: Self.draining, desired: 0, ordering: .acquiringAndReleasing).exchanged {
                drainSynchronously()  // `queued` was set meanwhile: this caller still drains
            }
            return
        }
        deliverThroughQueue(value, onMainActor: onMainActor)
    }

    /// Queues `value`, and drains the queue here (on the main actor), or has a task drain it on
    /// the handler's actor, unless somebody already drains it.
    @usableFromInline
    func deliverThroughQueue(_ value: Value, onMainActor: Bool) {
        let action = state.withLock { state -> Action in
            state.queue.append((value, !isCancelled()))
            let before = flags.bitwiseOr(Self.queued, ordering: .acquiringAndReleasing).oldValue
            if before & Self.draining != 0 { return .none }
            if onMainActor {
                flags.bitwiseOr(Self.draining, ordering: .acquiringAndReleasing)
                return .drainHere
            }
            if state.isScheduled { return .none }
            state.isScheduled = true
            return .schedule
        }
        switch action {
        case .none: break
        case .drainHere: drainSynchronously()
        case .schedule: schedule()
        }
    }

    private func schedule() {
        if isMainActor {
            Task { @MainActor in
                guard self.beginScheduledDrain() else { return }
                self.drainSynchronously()
            }
        } else {
            Task {
                guard self.beginScheduledDrain() else { return }
                await self.drainAsynchronously()
            }
        }
    }

    /// Called by the scheduled task: whether it should drain (main-actor code may have drained
    /// everything meanwhile, and is then draining or done).
    private func beginScheduledDrain() -> Bool {
        state.withLock { state in
            state.isScheduled = false
            // `queued` is set while the queue holds values, so no direct call can take
            // `draining` between this test and the next line.
            guard flags.load(ordering: .acquiring) & Self.draining == 0, !state.queue.isEmpty else { return false }
            flags.bitwiseOr(Self.draining, ordering: .acquiringAndReleasing)
            return true
        }
    }

    /// The next value to deliver, or `nil` (and draining stops) when there is none; values queued
    /// while the subscription was live and since cancelled are dropped.
    private func next() -> Value? {
        state.withLock { state in
            let cancelled = isCancelled()
            while let (value, queuedLive) = state.queue.popFirst() {
                if queuedLive && cancelled { continue }
                if state.queue.isEmpty { flags.bitwiseAnd(~Self.queued, ordering: .acquiringAndReleasing) }
                return value
            }
            // Nothing waits, and only this caller changes the word now (a direct call exchanges
            // it from 0 only, and everybody else holds the lock): stop draining.
            flags.store(0, ordering: .releasing)
            return nil
        }
    }

    /// Calls the handler with every queued value, then stops draining; only on the main actor, for
    /// a main-actor handler, by the caller that set ``draining``.
    @usableFromInline
    func drainSynchronously() {
        while let value = next() {
            call(value)
        }
    }

    /// Calls the handler with every queued value on its actor.
    private func drainAsynchronously() async {
        while let value = next() {
            if let asyncCall {
                await asyncCall(value)
            } else {
                // `call` is the `@isolated(any)` handler reinterpreted: reinterpreted back, it
                // carries its isolation again, and `await` calls it on its actor.
                await unsafeBitCast(PlainFunction(function: call), to: IsolatedFunction<Value>.self).function(value)
            }
        }
    }
}

/// What tells an ``IsolatedDelivery`` that its registration was cancelled: the subscription an
/// emitter hands out, or the observer a store registers.
@usableFromInline
package protocol SubscriptionLiveness: AnyObject, Sendable {
    /// Whether the registration was cancelled.
    var isCancelled: Bool { get }
}

extension EmitterSubscription: SubscriptionLiveness {}
