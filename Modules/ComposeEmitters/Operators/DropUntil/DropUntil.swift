import ComposeMachinery

extension Emitters {
    /// Drops values until another emitter sends. Returned by ``Emitter/dropUntil(emitter:)``.
    public struct DropUntil<Upstream: Emitter, Trigger: Emitter>: Emitter {
        public typealias Value = Upstream.Value

        enum Event: Sendable {
            case value(Value)
            case triggered
        }

        let upstream: Upstream
        let trigger: Trigger

        public func register(_ handler: @escaping @Sendable (Value) -> Void) -> EmitterSubscription {
            let relay = Relay<Event>()
            let trigger = SubscriptionSlot()
            // Touched by the relay's handler only, one event at a time.
            let machine = HandlerState(DropUntilStateMachine())
            let downstream = relay.register { event in
                switch event {
                case .triggered:
                    if machine.value.triggered() == .cancelTrigger { trigger.cancel() }
                case .value(let value):
                    if machine.value.receivedValue() == .emit { handler(value) }
                }
            }
            trigger.replace(with: self.trigger.register { _ in relay.send(.triggered) })
            let upstream = self.upstream.register { relay.send(.value($0)) }
            return EmitterSubscription([downstream, upstream, EmitterSubscription(onCancel: trigger.cancel)])
        }
    }
}

extension Emitter {
    /// Drops values until `emitter` sends anything, then sends every value.
    ///
    /// ```swift
    /// emitter.dropUntil(emitter: controlEmitter) += { value in print("Received value:", value) }
    /// ```
    ///
    /// A value and the trigger sent from different threads at the same moment are ordered by
    /// arrival; the value passes only if it arrives after the trigger.
    public func dropUntil<Trigger: Emitter>(emitter trigger: Trigger) -> Emitters.DropUntil<Self, Trigger> {
        Emitters.DropUntil(upstream: self, trigger: trigger)
    }
}
