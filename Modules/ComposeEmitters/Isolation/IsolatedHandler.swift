import ComposeMachinery

/// A handler as the subscribing APIs receive it, `@isolated(any)`, turned into what an emitter
/// calls: a plain synchronous `@Sendable` function.
///
/// Every subscribing API (`+=`, `!+=`, ``Emitter/subscribe(_:)``, a trailing closure, the store's
/// `observe`) declares its handler `@_inheritActorContext @isolated(any) @Sendable`, so a closure
/// takes the isolation of the code it is written in with no annotation: in main-actor code (an
/// app target built with `.defaultIsolation(MainActor.self)`, a `@MainActor` view model) it is
/// main-actor isolated and may call main-actor code; in nonisolated code it is nonisolated. The
/// function carries its isolation in ``isolation``:
///
/// - **Nonisolated** (`isolation == nil`): the handler is called synchronously on the delivering
///   thread, exactly as before; it costs nothing extra.
/// - **Isolated to an actor**: an ``IsolatedDelivery`` calls it on that actor, in send order; a
///   main-actor handler is called synchronously when the value is sent on the main actor.
///
/// Swift calls an `@isolated(any)` function only with `await` (SE-0431), while an emitter
/// delivers synchronously. An `@isolated(any)` function is an ordinary thick function whose
/// context also holds its isolation, so it is called like the same function type without the
/// attribute; ``synchronous(_:)`` reinterprets it that way, which is sound only where the caller
/// is already isolated as the function requires: for `isolation == nil`, anywhere, and for an
/// actor, only on it. The standard library's `MainActor.assumeIsolated` relies on the same
/// equivalence between isolated and nonisolated function types. `IsolatedHandlerTests` checks
/// that the two types have one layout and that the call reaches the closure with its captures.
@usableFromInline
package enum IsolatedHandler {
    /// The function `handler` reinterpreted as nonisolated: call it only while isolated to
    /// `handler.isolation` (anywhere when that is `nil`).
    ///
    /// The function travels in a struct: handing a function value itself to a generic function
    /// (`unsafeBitCast`) converts it to and from the generic representation of functions, a
    /// reabstraction thunk each way (an allocation, and a call on every delivery).
    @inlinable
    package static func synchronous<Value>(
        _ handler: @escaping @isolated(any) @Sendable (Value) -> Void
    ) -> @Sendable (Value) -> Void {
        unsafeBitCast(IsolatedFunction(handler), to: PlainFunction<Value>.self).function
    }

    /// ``synchronous(_:)`` for a handler without arguments.
    @inlinable
    package static func synchronous(
        _ handler: @escaping @isolated(any) @Sendable () -> Void
    ) -> @Sendable () -> Void {
        unsafeBitCast(IsolatedSignalFunction(handler), to: PlainSignalFunction.self).function
    }

    /// The subscriber for a handler given in parts: its isolation, the handler reinterpreted as
    /// nonisolated, and the handler called with `await`. For handlers the other overloads cannot
    /// take whole (several values, or a handler wrapped in a test of the value).
    @inlinable
    package static func subscriber<Value: Sendable>(
        isolation: (any Actor)?,
        call: @escaping @Sendable (Value) -> Void,
        asyncCall: @escaping @Sendable (Value) async -> Void
    ) -> IsolatedSubscriber<Value> {
        guard let isolation else { return IsolatedSubscriber(handler: call) }
        return IsolatedSubscriber(IsolatedDelivery(isolation: isolation, call: call, asyncCall: asyncCall))
    }

    /// What an emitter registers for `handler`: the handler itself when it is nonisolated,
    /// otherwise an ``IsolatedDelivery`` that calls it on its actor.
    @inlinable
    package static func subscriber<Value: Sendable>(
        _ handler: @escaping @isolated(any) @Sendable (Value) -> Void
    ) -> IsolatedSubscriber<Value> {
        // The closure that awaits the handler is formed only for an isolated one: for a
        // nonisolated handler it would be an allocation thrown away.
        guard let isolation = handler.isolation else { return IsolatedSubscriber(handler: synchronous(handler)) }
        return IsolatedSubscriber(IsolatedDelivery(handler, isolation: isolation))
    }

    /// ``subscriber(_:)-(_)`` for a handler of signals, called without their `Void` value.
    @inlinable
    package static func subscriber(
        _ handler: @escaping @isolated(any) @Sendable () -> Void
    ) -> IsolatedSubscriber<Void> {
        let call = synchronous(handler)
        guard let isolation = handler.isolation else { return IsolatedSubscriber(handler: { _ in call() }) }
        return IsolatedSubscriber(
            IsolatedDelivery(isolation: isolation, call: { _ in call() }, asyncCall: { _ in await handler() }))
    }
}

/// The function an emitter registers for a handler, and the delivery that takes it to the
/// handler's actor, if it has one.
@usableFromInline
package struct IsolatedSubscriber<Value: Sendable>: Sendable {
    /// What the emitter calls, on its delivering thread.
    @usableFromInline
    package let handler: @Sendable (Value) -> Void
    @usableFromInline
    let delivery: IsolatedDelivery<Value>?

    @inlinable
    init(handler: @escaping @Sendable (Value) -> Void) {
        self.handler = handler
        self.delivery = nil
    }

    @inlinable
    init(_ delivery: IsolatedDelivery<Value>) {
        self.handler = { value in delivery.deliver(value) }
        self.delivery = delivery
    }

    /// Hands the delivery what tells it the registration was cancelled (the subscription an
    /// emitter returned, or a store's observer), so values queued before a cancellation are
    /// dropped rather than delivered late.
    @inlinable
    package func attach(_ liveness: any SubscriptionLiveness) {
        delivery?.attach(liveness)
    }
}

/// A handler as the subscribing APIs receive it, in a struct (see ``IsolatedHandler/synchronous(_:)-(_)``).
@usableFromInline
struct IsolatedFunction<Value> {
    @usableFromInline let function: @isolated(any) @Sendable (Value) -> Void

    @inlinable
    init(_ function: @escaping @isolated(any) @Sendable (Value) -> Void) {
        self.function = function
    }
}

/// ``IsolatedFunction`` reinterpreted as nonisolated.
@usableFromInline
struct PlainFunction<Value> {
    @usableFromInline let function: @Sendable (Value) -> Void

    @inlinable
    init(function: @escaping @Sendable (Value) -> Void) {
        self.function = function
    }
}

/// A signal handler as the subscribing APIs receive it, in a struct.
@usableFromInline
struct IsolatedSignalFunction {
    @usableFromInline let function: @isolated(any) @Sendable () -> Void

    @inlinable
    init(_ function: @escaping @isolated(any) @Sendable () -> Void) {
        self.function = function
    }
}

/// ``IsolatedSignalFunction`` reinterpreted as nonisolated.
@usableFromInline
struct PlainSignalFunction {
    @usableFromInline let function: @Sendable () -> Void
}
