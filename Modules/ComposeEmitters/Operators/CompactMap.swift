import ComposeMachinery

extension Emitters {
    /// Sends the non-`nil` results of a transform. Returned by ``Emitter/compactMap(_:)`` and
    /// ``Emitter/nonNull()``.
    public struct CompactMap<Upstream: Emitter, Value: Sendable>: Emitter {
        @usableFromInline let upstream: Upstream
        @usableFromInline let transform: AssumedIsolationReturning<Upstream.Value, Value?>

        @inlinable
        init(upstream: Upstream, transform: AssumedIsolationReturning<Upstream.Value, Value?>) {
            self.upstream = upstream
            self.transform = transform
        }

        @inlinable
        public func register(_ handler: @escaping @Sendable (Value) -> Void) -> EmitterSubscription {
            let transform = self.transform
            return IsolatedHandler.register(on: upstream, isolation: transform.isolation) { value in
                if let transformed = transform.callAssumingIsolation(value) { handler(transformed) }
            }
        }
    }
}

extension Emitter {
    /// Transforms every value and sends the results that are not `nil`.
    ///
    /// ```swift
    /// input.compactMap { Int($0) } += { number in print(number) }
    /// ```
    ///
    /// The closure runs where it was written, as ``map(_:)``'s does.
    @inlinable
    public func compactMap<Transformed>(
        @_inheritActorContext _ transform: @escaping @isolated(any) @Sendable (Value) -> Transformed?
    ) -> Emitters.CompactMap<Self, Transformed> {
        Emitters.CompactMap(upstream: self, transform: AssumedIsolationReturning(transform))
    }
}
