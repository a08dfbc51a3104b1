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
        let transform: @Sendable (Upstream.Value) -> Inner

        public func register(_ handler: @escaping @Sendable (Value) -> Void) -> EmitterSubscription {
            let relay = Relay<Event>()
            let current = SubscriptionSlot()
            // Touched by the relay's handler only, one event at a time.
            let machine = HandlerState(FlatMapStateMachine())
            let transform = self.transform
            let downstream = relay.register { [weak relay] event in
                guard let relay else { return }
                switch event {
                case .outer(let value):
                    guard case .follow(let tag) = machine.value.receivedOuter() else { return }
                    let inner = transform(value)
                    // Values already on their way from the old inner emitter carry an old tag
                    // and are dropped below.
                    current.replace(with: inner.register { relay.send(.inner($0, generation: tag)) })
                case .inner(let value, let tag):
                    if machine.value.receivedInner(generation: tag) == .emit { handler(value) }
                }
            }
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
    public func flatMap<Inner: Emitter>(
        _ transform: @escaping @Sendable (Value) -> Inner
    ) -> Emitters.FlatMap<Self, Inner> {
        Emitters.FlatMap(upstream: self, transform: transform)
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
        _ transform: @escaping @Sendable () -> Inner
    ) -> Emitters.FlatMap<Self, Inner> {
        Emitters.FlatMap(upstream: self) { _ in transform() }
    }
}
