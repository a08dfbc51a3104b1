import ComposeMachinery

extension Emitters {
    /// Sends the upstream values that satisfy a predicate. Returned by ``Emitter/filter(_:)`` and
    /// ``Emitter/not(_:)``.
    public struct Filter<Upstream: Emitter>: Emitter {
        public typealias Value = Upstream.Value

        @usableFromInline let upstream: Upstream
        @usableFromInline let isIncluded: AssumedIsolationReturning<Value, Bool>

        @inlinable
        init(upstream: Upstream, isIncluded: AssumedIsolationReturning<Value, Bool>) {
            self.upstream = upstream
            self.isIncluded = isIncluded
        }

        @inlinable
        public func register(_ handler: @escaping @Sendable (Value) -> Void) -> EmitterSubscription {
            let isIncluded = self.isIncluded
            return IsolatedHandler.register(on: upstream, isolation: isIncluded.isolation) { value in
                if isIncluded.callAssumingIsolation(value) { handler(value) }
            }
        }
    }
}

extension Emitter {
    /// Sends only the values for which `isIncluded` returns `true`.
    ///
    /// ```swift
    /// emitter.filter { $0 == .one } += { value in print("One received.") }
    /// ```
    ///
    /// The closure runs where it was written, as ``map(_:)``'s does.
    ///
    /// - Parameter isIncluded: Called once per value, per subscription.
    @inlinable
    public func filter(
        @_inheritActorContext _ isIncluded: @escaping @isolated(any) @Sendable (Value) -> Bool
    ) -> Emitters.Filter<Self> {
        Emitters.Filter(upstream: self, isIncluded: AssumedIsolationReturning(isIncluded))
    }
}
