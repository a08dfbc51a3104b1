/// A source of values that closures can observe.
///
/// Emitters are the event channel of Compose: a component declares them as `let` properties,
/// its view or a service sends on them, and the component's `observers` subscribe to them.
/// ``SignalEmitter`` and ``ValueEmitter`` are the sources; everything in ``Emitters`` derives a
/// new emitter from another one (`emitter.debounce(interval: .seconds(1)).undup()`), like
/// Combine's operators.
///
/// ```swift
/// let printMessage = ValueEmitter<String>()
/// printMessage += { message in print(message) }
/// printMessage.send("A simple message.")
/// ```
///
/// ## Semantics every emitter keeps
/// - **Order**: handlers are called in subscription order, and every handler sees values in the
///   same order.
/// - **Thread**: a value is delivered on the thread that sent it, unless the emitter is already
///   delivering (a handler sent again, or another thread is sending); then it is queued and
///   delivered, in send order, by the thread that is delivering, before that thread's `send`
///   returns. Time-based operators deliver on a task of Swift's concurrency pool.
/// - **No overlap**: a handler is never called concurrently with itself or with another handler
///   of the same emitter, so it needs no lock for its own state.
/// - **Reentrancy**: a handler may send, subscribe and cancel (itself or others). A value sent
///   from a handler is delivered after the current one; a handler added during a delivery first
///   hears the next value; a handler cancelled during a delivery is not called for the rest of it.
/// - **Cancellation**: once ``EmitterSubscription/cancel()`` has returned, no send that starts afterwards
///   reaches the handler.
/// - **Locks**: handlers are never called while a lock is held.
///
/// ## Writing an emitter
/// Conform a `Sendable` type and implement ``register(_:)``, usually in terms of other emitters.
/// Keep the "no overlap" promise: if your emitter forwards values from several sources, funnel
/// them through a ``ValueEmitter`` of your own.
public protocol Emitter<Value>: Sendable {
    /// The type of the values this emitter sends; `Void` for signals.
    associatedtype Value: Sendable

    /// Adds `handler` as an observer and returns the subscription that removes it.
    ///
    /// This is the low-level entry point that operators build on. It does not join the current
    /// ``ObservationScope``; ``subscribe(_:)`` and `+=` do.
    ///
    /// - Parameter handler: Called with every value, never concurrently with itself.
    /// - Returns: The subscription; cancelling it stops `handler`.
    func register(_ handler: @escaping @Sendable (Value) -> Void) -> EmitterSubscription
}

extension Emitter {
    /// Observes every value this emitter sends.
    ///
    /// If an ``ObservationScope`` is current, the subscription joins it and is cancelled when the
    /// scope ends.
    ///
    /// The handler runs where it was written (the Compose module's article "The main actor and UI
    /// layers" has the whole table):
    /// - written in **nonisolated** code, it is called on the delivering thread, before `send`
    ///   returns, like every handler of ``Emitter``;
    /// - written in **main-actor** code (a main-actor app target, a `@MainActor` type), it is
    ///   main-actor isolated and may call main-actor code. A value sent on the main actor reaches
    ///   it before `send` returns; one sent elsewhere is queued and delivered on the main actor
    ///   soon after, in send order;
    /// - written in an **actor**'s code, it is called on that actor, in send order.
    ///
    /// - Parameter handler: Called with every value, in order, never concurrently with itself.
    /// - Returns: The subscription. It stays active when released; cancel it, or let its scope end.
    /// - Complexity: Amortized O(1) for a ``SignalEmitter`` or ``ValueEmitter`` source.
    @inlinable
    @discardableResult
    public func subscribe(
        @_inheritActorContext _ handler: @escaping @isolated(any) @Sendable (Value) -> Void
    ) -> EmitterSubscription {
        // A nonisolated handler is registered as it is, with no wrapper between the emitter and it.
        subscribe(IsolatedHandler.subscriber(handler))
    }

    /// Registers `subscriber` and adds its subscription to the current scope (in a scope that has
    /// ended, registers nothing).
    @inlinable
    package func subscribe(_ subscriber: IsolatedSubscriber<Value>) -> EmitterSubscription {
        ObservationScope.joiningCurrent(subscriber) { subscriber in subscriber.subscription(for: register(subscriber.handler)) }
    }
}
