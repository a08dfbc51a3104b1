import ComposeMachinery

/// A handler as the subscribing APIs receive it, `@isolated(any)`, turned into what an emitter
/// calls on its delivering thread.
///
/// Every subscribing API (`+=`, `!+=`, ``Emitter/subscribe(_:)``, a trailing closure, the store's
/// `observe`) declares its handler `@_inheritActorContext @isolated(any) @Sendable`, so a closure
/// takes the isolation of the code it is written in with no annotation: in main-actor code (an
/// app target built with `.defaultIsolation(MainActor.self)`, a `@MainActor` view model) it is
/// main-actor isolated and may use main-actor state; in nonisolated code it is nonisolated.
///
/// - **Nonisolated**: the emitter calls the handler itself, synchronously on the delivering
///   thread; it costs nothing extra.
/// - **Isolated to an actor**: the emitter hands each value to a ``Relay`` running on that actor,
///   which calls the handler there, one value at a time, in send order (at once when the value is
///   sent on the main actor to a main-actor handler). The subscription the caller gets stops the
///   relay before it removes the registration (``IsolatedSubscription``): once `cancel()` has
///   returned, the handler is not called again, even with values sent before.
///
/// The synchronous call of an `@isolated(any)` function is `AssumedIsolation`'s, the one place
/// Compose makes it.
@usableFromInline
package enum IsolatedHandler {
    /// What an emitter registers for `handler`.
    @inlinable
    package static func subscriber<Value: Sendable>(
        _ handler: @escaping @isolated(any) @Sendable (Value) -> Void
    ) -> IsolatedSubscriber<Value> {
        subscriber(AssumedIsolation(handler))
    }

    /// ``subscriber(_:)-(_)`` for a handler of signals, called without their `Void` value.
    @inlinable
    package static func subscriber(
        _ handler: @escaping @isolated(any) @Sendable () -> Void
    ) -> IsolatedSubscriber<Void> {
        subscriber(AssumedIsolation(handler))
    }

    /// What an emitter registers for a handler kept by `AssumedIsolation` (several values, or a
    /// handler wrapped in a test of the value).
    ///
    /// In a scope with a ``HandlerContext`` (a component tree mounted in a service override
    /// scope), the handler is called inside it.
    @inlinable
    package static func subscriber<Value: Sendable>(_ handler: AssumedIsolation<Value>) -> IsolatedSubscriber<Value> {
        let handler = ObservationScope.currentHandlerContext.map { handler.called(inside: $0) } ?? handler
        guard let isolation = handler.isolation else { return IsolatedSubscriber(handler: handler.nonisolatedFunction) }
        let relay = Relay<Value>(running: .isolated(isolation))
        // A value sent elsewhere is handled later, in a task of the relay's: the handler is still
        // delivering it, and what it records is a consequence (see `EventLog.asConsequence`).
        relay.start { value in EventLog.asConsequence { handler.callAssumingIsolation(value) } }
        return IsolatedSubscriber(relay: relay)
    }
}

/// The function an emitter registers for a handler, and the relay that takes it to the handler's
/// actor, if it has one.
@usableFromInline
package struct IsolatedSubscriber<Value: Sendable>: Sendable {
    /// What the emitter calls, on its delivering thread.
    @usableFromInline
    package let handler: @Sendable (Value) -> Void
    /// The relay to the handler's actor; `nil` for a nonisolated handler, which `handler` is.
    @usableFromInline
    let relay: Relay<Value>?

    @inlinable
    init(handler: @escaping @Sendable (Value) -> Void) {
        self.handler = handler
        self.relay = nil
    }

    @inlinable
    init(relay: Relay<Value>) {
        self.handler = { value in relay.send(value) }
        self.relay = relay
    }

    /// The subscription to hand out for `registration`, the one the emitter (or the store)
    /// returned for ``handler``: `registration` itself for a nonisolated handler; for an isolated
    /// one, a subscription that stops the relay before it cancels `registration`.
    ///
    /// Releasing the subscription cancels nothing: the relay is kept by the registration, and
    /// values sent before a release are delivered.
    @inlinable
    package func subscription(for registration: EmitterSubscription) -> EmitterSubscription {
        guard let relay else { return registration }
        return IsolatedSubscription(relay: relay, registration: registration)
    }
}

/// The subscription of a handler isolated to an actor: cancelling it stops the relay that calls
/// the handler there (so the handler is not called again once `cancel()` has returned, see
/// ``Relay/stop()``), then cancels the registration. Every later `cancel()` does both too, so
/// that one made while another thread's first is waiting for the handler waits as well.
@usableFromInline
final class IsolatedSubscription<Value: Sendable>: EmitterSubscription, @unchecked Sendable {  // Immutable.
    @usableFromInline let relay: Relay<Value>

    @inlinable
    init(relay: Relay<Value>, registration: EmitterSubscription) {
        self.relay = relay
        super.init(payload: registration)
    }

    /// Stops the relay, then cancels the registration, every time (a later stop waits for a call
    /// in progress on the actor as the first does, and returns at once made by the handler
    /// itself).
    override func didCancel(first: Bool) {
        relay.stop()
        // Every time: a later cancel made while the first waits for this relay's handler reaches
        // the stages upstream (an operator's closure on another actor) as the first will.
        unsafeDowncast(payload.unsafelyUnwrapped, to: EmitterSubscription.self).cancel()
    }

    override var isSettledOnceDone: Bool {
        relay.isStoppedAndIdle
    }
}

extension IsolatedHandler {
    /// Registers `body` (an operator's work on each upstream value: a transform or a predicate
    /// written by the app, then the downstream handler) where the app's closure was written: on
    /// the delivering thread when `isolation` is `nil`, otherwise through a ``Relay`` running on
    /// that actor, as a handler written there is. The subscription stops that relay as a
    /// handler's does, and releasing it cancels nothing.
    ///
    /// - Parameter isolation: The isolation of the app's closure, which `body` calls with
    ///   `callAssumingIsolation`.
    ///
    /// The relay joins the gate of the scope's registration under way (see
    /// ``RegistrationGate/registering``), so an end during the registration stops it; in a scope
    /// with a ``HandlerContext``, `body` runs inside it, as handlers do.
    @inlinable
    package static func register<Upstream: Emitter>(
        on upstream: Upstream,
        isolation: (any Actor)?,
        _ body: @escaping @Sendable (Upstream.Value) -> Void
    ) -> EmitterSubscription {
        guard let isolation else { return upstream.register(HandlerContext.inCurrent(body)) }
        let subscriber = subscriber(AssumedIsolation(isolation: isolation, function: body))
        if let relay = subscriber.relay { RegistrationGate.stopWithCurrent(relay) }
        return subscriber.subscription(for: upstream.register(subscriber.handler))
    }
}

extension AssumedIsolation {
    /// This function, called inside `context` where its isolation holds.
    @inlinable
    func called(inside context: HandlerContext) -> AssumedIsolation {
        AssumedIsolation(isolation: isolation) { argument in
            context.around { self.callAssumingIsolation(argument) }
        }
    }
}
