import ComposeMachinery

extension Emitters {
    /// Drops values equal to the one before. Returned by ``Emitter/undup()`` and
    /// ``Emitter/undup(by:)``.
    public struct Undup<Upstream: Emitter>: Emitter {
        public typealias Value = Upstream.Value

        @usableFromInline let upstream: Upstream
        @usableFromInline let areEqual: AssumedIsolationReturning<(Value, Value), Bool>

        @inlinable
        init(upstream: Upstream, areEqual: AssumedIsolationReturning<(Value, Value), Bool>) {
            self.upstream = upstream
            self.areEqual = areEqual
        }

        @inlinable
        public func register(_ handler: @escaping @Sendable (Value) -> Void) -> EmitterSubscription {
            let last = HandlerState<Value?>(nil)
            let areEqual = self.areEqual
            return IsolatedHandler.register(on: upstream, isolation: areEqual.isolation) { value in
                if let previous = last.value, areEqual.callAssumingIsolation((previous, value)) { return }
                last.value = value
                handler(value)
            }
        }
    }
}

extension Emitter where Value: Equatable {
    /// Sends a value only if it differs from the previous one this subscription received.
    ///
    /// ```swift
    /// emitter.undup() += { value in print("Received: \(value)") }
    /// emitter.send(5); emitter.send(5); emitter.send(10)  // prints 5, then 10
    /// ```
    ///
    /// The first value always passes. Each subscription compares against its own previous value.
    /// For a type whose `Equatable` conformance is main-actor isolated (a model type in a
    /// main-actor app target), write `undup { $0 == $1 }` (``undup(by:)``) or mark the type
    /// `nonisolated`; see
    /// the main-actor article.
    @inlinable
    public func undup() -> Emitters.Undup<Self> {
        Emitters.Undup(upstream: self, areEqual: AssumedIsolationReturning(isolation: nil) { $0.0 == $0.1 })
    }
}

extension Emitter {
    /// Sends a value only if `areEqual` says it differs from the previous one this subscription
    /// received.
    ///
    /// ```swift
    /// profile.undup { $0.name == $1.name } += { profile in print("Renamed: \(profile.name)") }
    /// profile.undup { $0 == $1 } += { profile in print("Changed: \(profile)") }
    /// ```
    ///
    /// The first value always passes. The closure runs where it was written, as ``map(_:)``'s
    /// does, so in main-actor code it may use a main-actor `Equatable` conformance. (Write the
    /// closure: `undup(by: ==)` names the generic `==`, which is nonisolated.)
    ///
    /// - Parameter areEqual: Called with the previous value and the new one.
    @inlinable
    public func undup(
        @_inheritActorContext by areEqual: @escaping @isolated(any) @Sendable (Value, Value) -> Bool
    ) -> Emitters.Undup<Self> {
        Emitters.Undup(upstream: self, areEqual: .pair(areEqual))
    }
}
