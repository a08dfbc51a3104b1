import ComposeMachinery

extension Emitters {
    /// Sends the values of two emitters as one stream. Returned by `+` and
    /// ``Emitter/merge(with:)``.
    public struct Merge<First: Emitter, Second: Emitter>: Emitter where First.Value == Second.Value {
        public typealias Value = First.Value

        let first: First
        let second: Second

        public func register(_ handler: @escaping @Sendable (Value) -> Void) -> EmitterSubscription {
            // The relay keeps the promise that `handler` never runs concurrently with itself,
            // even when the two sources send from different threads.
            let relay = Relay<Value>()
            let downstream = relay.register(handler)
            let first = self.first.register { relay.send($0) }
            let second = self.second.register { relay.send($0) }
            return EmitterSubscription([downstream, first, second])
        }
    }
}

extension Emitter {
    /// Sends the values of this emitter and of `other`, in the order they arrive.
    ///
    /// ```swift
    /// first.merge(with: second) += { print("First or second emitter event received.") }
    /// ```
    public func merge<Other: Emitter>(with other: Other) -> Emitters.Merge<Self, Other> where Other.Value == Value {
        Emitters.Merge(first: self, second: other)
    }

    /// Merges two emitters of the same value type: `(first + second) += { ... }`.
    public static func + <Other: Emitter>(lhs: Self, rhs: Other) -> Emitters.Merge<Self, Other>
    where Other.Value == Value {
        lhs.merge(with: rhs)
    }
}
