extension Emitters {
    /// Sends the non-`nil` results of a transform. Returned by ``Emitter/compactMap(_:)`` and
    /// ``Emitter/nonNull()``.
    public struct CompactMap<Upstream: Emitter, Value: Sendable>: Emitter {
        @usableFromInline let upstream: Upstream
        @usableFromInline let transform: @Sendable (Upstream.Value) -> Value?

        @inlinable
        init(upstream: Upstream, transform: @escaping @Sendable (Upstream.Value) -> Value?) {
            self.upstream = upstream
            self.transform = transform
        }

        @inlinable
        public func register(_ handler: @escaping @Sendable (Value) -> Void) -> EmitterSubscription {
            let transform = self.transform
            return upstream.register { value in
                if let transformed = transform(value) { handler(transformed) }
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
    @inlinable
    public func compactMap<Transformed>(
        _ transform: @escaping @Sendable (Value) -> Transformed?
    ) -> Emitters.CompactMap<Self, Transformed> {
        Emitters.CompactMap(upstream: self, transform: transform)
    }
}
