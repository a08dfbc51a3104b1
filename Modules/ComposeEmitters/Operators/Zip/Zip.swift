import ComposeMachinery

extension Emitters {
    /// Pairs the values of two emitters in order. Returned by ``Emitter/zip(_:)``.
    public struct Zip<First: Emitter, Second: Emitter>: Emitter {
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
            let machine = HandlerState(ZipStateMachine<First.Value, Second.Value>())
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
    /// Pairs the *n*th value of this emitter with the *n*th value of `other`.
    ///
    /// ```swift
    /// requests.zip(responses) += { request, response in log(request, response) }
    /// ```
    ///
    /// Values wait until their partner arrives; a side that runs ahead keeps its unmatched
    /// values in memory, as Combine's `zip` does.
    public func zip<Other: Emitter>(_ other: Other) -> Emitters.Zip<Self, Other> {
        Emitters.Zip(first: self, second: other)
    }
}
