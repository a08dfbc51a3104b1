import ComposeMachinery

infix operator !+= : AssignmentPrecedence

extension Emitters {
    /// Sends the first value, then cancels itself. Returned by ``Emitter/once()``.
    public struct Once<Upstream: Emitter>: Emitter {
        public typealias Value = Upstream.Value

        @usableFromInline let upstream: Upstream

        @inlinable
        init(upstream: Upstream) {
            self.upstream = upstream
        }

        public func register(_ handler: @escaping @Sendable (Value) -> Void) -> EmitterSubscription {
            // Touched by the handler only: an emitter never calls a handler concurrently.
            let machine = HandlerState(OnceStateMachine())
            let upstreamSubscription = SubscriptionSlot()
            let subscription = upstream.register { value in
                guard machine.value.received() == .cancelAndEmit else { return }
                upstreamSubscription.cancel()
                handler(value)
            }
            upstreamSubscription.replace(with: subscription)
            return subscription
        }
    }
}

extension Emitter {
    /// Sends only the first value each subscription receives, then cancels the subscription.
    ///
    /// Subscribed to with `+=` or `subscribe`, the subscription returned is cancelled once the
    /// handler has run, wherever it runs. Wrapped in another operator or in ``AnyEmitter``, the
    /// registration upstream is cancelled with the first value, and the subscription of the
    /// outer emitter hears nothing more.
    ///
    /// ```swift
    /// emitter.once() += { value in print("Received value 1st way:", value) }
    /// ```
    public func once() -> Emitters.Once<Self> {
        Emitters.Once(upstream: self)
    }

    /// Observes only the next value, then never again: `emitter !+= { value in ... }`.
    ///
    /// - Returns: The subscription, cancelled once the handler has run.
    @discardableResult
    public static func !+= (
        emitter: Self,
        @_inheritActorContext handler: @escaping @isolated(any) @Sendable (Value) -> Void
    ) -> EmitterSubscription {
        emitter.once().subscribeCancellingAfterward(AssumedIsolation(handler))
    }
}

extension Emitters.Once where Value == Void {
    /// Observes the first signal, then cancels the subscription: `signal.once() += { ... }`.
    ///
    /// - Returns: The subscription, cancelled once the handler has run.
    @discardableResult
    public static func += (
        emitter: Self,
        @_inheritActorContext handler: @escaping @isolated(any) @Sendable () -> Void
    ) -> EmitterSubscription {
        emitter.subscribeCancellingAfterward(AssumedIsolation(handler))
    }
}

extension Emitter where Value == Void {
    /// Observes only the next signal, then never again: `signal !+= { ... }`.
    @discardableResult
    public static func !+= (
        emitter: Self,
        @_inheritActorContext handler: @escaping @isolated(any) @Sendable () -> Void
    ) -> EmitterSubscription {
        emitter.once().subscribeCancellingAfterward(AssumedIsolation(handler))
    }
}

extension Emitters.Once {
    /// Observes the first value, then cancels the subscription: `emitter.once().subscribe { ... }`.
    ///
    /// - Returns: The subscription, cancelled once the handler has run (on its actor, for a
    ///   handler written on one).
    @discardableResult
    public func subscribe(
        @_inheritActorContext _ handler: @escaping @isolated(any) @Sendable (Value) -> Void
    ) -> EmitterSubscription {
        subscribeCancellingAfterward(AssumedIsolation(handler))
    }

    /// Observes the first value, then cancels the subscription: `emitter.once() += { value in ... }`.
    ///
    /// - Returns: The subscription, cancelled once the handler has run.
    @discardableResult
    public static func += (
        emitter: Self,
        @_inheritActorContext handler: @escaping @isolated(any) @Sendable (Value) -> Void
    ) -> EmitterSubscription {
        emitter.subscribeCancellingAfterward(AssumedIsolation(handler))
    }

    /// Subscribes `handler` and cancels the subscription it returns once the handler has run:
    /// `once()` cancels its upstream registration on the delivering thread, but a handler on an
    /// actor runs later, through a relay the returned subscription stops.
    func subscribeCancellingAfterward(_ handler: AssumedIsolation<Value>) -> EmitterSubscription {
        let returned = SubscriptionSlot()
        let subscription = subscribe(
            IsolatedHandler.subscriber(
                AssumedIsolation(isolation: handler.isolation) { value in
                    handler.callAssumingIsolation(value)
                    returned.cancel()
                }))
        returned.replace(with: subscription)
        return subscription
    }
}
