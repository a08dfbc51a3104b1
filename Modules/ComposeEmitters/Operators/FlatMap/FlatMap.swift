import ComposeMachinery

extension Emitters {
    /// Subscribes to the emitter made from each upstream value, dropping the previous one.
    /// Returned by `flatMap(_:)`.
    public struct FlatMap<Upstream: Emitter, Inner: Emitter>: Emitter {
        public typealias Value = Inner.Value

        enum Event: Sendable {
            case outer(Upstream.Value)
            case inner(Inner.Value, generation: UInt64)
        }

        let upstream: Upstream
        let transform: AssumedIsolationReturning<Upstream.Value, Inner>

        public func register(_ handler: @escaping @Sendable (Value) -> Void) -> EmitterSubscription {
            // The events are handled where the transform was written: on its actor if it has one.
            let relay = Relay<Event>(running: transform.isolation.map { .isolated($0) } ?? .inline)
            let current = SubscriptionSlot()
            // Touched by the relay's handler only, one event at a time.
            let machine = HandlerState(FlatMapStateMachine())
            let transform = self.transform
            // Each inner emitter is subscribed in this subscription's context, whoever delivers.
            let context = RegistrationContext.current
            if transform.isolation != nil { RegistrationGate.stopWithCurrent(relay) }
            let downstream = relay.register(
                HandlerContext.inCurrent { [weak relay] event in
                    guard let relay else { return }
                    // Handled on the transform's actor, perhaps in a task of the relay's: a
                    // delivery, whose sends are consequences (see `EventLog.asConsequence`).
                    EventLog.asConsequence {
                        switch event {
                        case .outer(let value):
                            guard case .follow(let tag) = machine.value.receivedOuter() else { return }
                            // Values already on their way from the old inner emitter carry an old tag
                            // and are dropped below.
                            let inner = context.run { transform.callAssumingIsolation(value) }
                            let subscription = context.register({ relay.send(.inner($0, generation: tag)) }) {
                                inner.register($0)
                            }
                            current.replace(with: subscription)
                        case .inner(let value, let tag):
                            if machine.value.receivedInner(generation: tag) == .emit { handler(value) }
                        }
                    }
                })
            let upstream = self.upstream.register { relay.send(.outer($0)) }
            return EmitterSubscription([downstream, upstream, EmitterSubscription(onCancel: current.cancel)])
        }
    }
}

extension Emitter {
    /// Switches to the emitter that `transform` makes from each value.
    ///
    /// Each value cancels the subscription to the previous inner emitter, so only the newest one
    /// is heard (Combine's `map(_:).switchToLatest()`).
    ///
    /// ```swift
    /// value.didCreate.flatMap {
    ///     value.innerValue?.sendData ?? ValueEmitter<String>()
    /// } += { data in print("Received:", data) }
    /// ```
    ///
    /// The closure runs where it was written, as ``map(_:)``'s does. Written on an actor, it runs
    /// there, so the inner emitter it returns is subscribed once it has run (values that emitter
    /// sends before are not heard), and the inner emitters' values are handed over there too, in
    /// order.
    ///
    /// The closure runs, and each inner emitter is subscribed, as this subscription was made,
    /// whoever delivers the outer value: in its ``ObservationScope`` (which the inner subscription
    /// joins, and so counts in its `activeSubscriptionCount`; once that scope has ended, an inner
    /// emitter is never subscribed), and as its component's code.
    public func flatMap<Inner: Emitter>(
        @_inheritActorContext _ transform: @escaping @isolated(any) @Sendable (Value) -> Inner
    ) -> Emitters.FlatMap<Self, Inner> {
        Emitters.FlatMap(upstream: self, transform: AssumedIsolationReturning(transform))
    }
}

extension Emitter where Value == Void {
    /// Switches to the emitter that `transform` makes on each signal.
    ///
    /// ```swift
    /// firstEmitter.flatMap { secondEmitter } += {
    ///     print("Second emitter fired after the first emitter!")
    /// }
    /// ```
    public func flatMap<Inner: Emitter>(
        @_inheritActorContext _ transform: @escaping @isolated(any) @Sendable () -> Inner
    ) -> Emitters.FlatMap<Self, Inner> {
        let kept = AssumedIsolationReturning<Void, Inner>(transform)
        return Emitters.FlatMap(
            upstream: self,
            transform: AssumedIsolationReturning(isolation: kept.isolation) { _ in kept.callAssumingIsolation(()) })
    }
}
