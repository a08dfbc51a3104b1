import ComposeMachinery

extension Emitters {
    /// Sends the latest values of two emitters whenever either sends. Returned by
    /// ``Emitter/combineLatest(_:)``.
    public struct CombineLatest<First: Emitter, Second: Emitter>: Emitter {
        public typealias Value = (First.Value, Second.Value)

        enum Event: Sendable {
            case first(First.Value)
            case second(Second.Value)
        }

        let first: First
        let second: Second

        public func register(_ handler: @escaping @Sendable (Value) -> Void) -> EmitterSubscription {
            let relay = Relay<Event>()
            // Touched by the relay's handler only, one event at a time.
            let machine = HandlerState(CombineLatestStateMachine<First.Value, Second.Value>())
            let downstream = relay.register { event in
                let action =
                    switch event {
                    case .first(let value): machine.value.receivedFirst(value)
                    case .second(let value): machine.value.receivedSecond(value)
                    }
                if case .emit(let first, let second) = action { handler((first, second)) }
            }
            let first = self.first.register { relay.send(.first($0)) }
            let second = self.second.register { relay.send(.second($0)) }
            return EmitterSubscription([downstream, first, second])
        }
    }
}

extension Emitter {
    /// Sends a pair of the latest values of this emitter and `other` each time either sends,
    /// once both have sent at least once.
    ///
    /// ```swift
    /// email.combineLatest(password) += { email, password in validate(email, password) }
    /// ```
    public func combineLatest<Other: Emitter>(_ other: Other) -> Emitters.CombineLatest<Self, Other> {
        Emitters.CombineLatest(first: self, second: other)
    }
}
