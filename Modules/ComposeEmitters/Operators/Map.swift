extension Emitters {
    /// Sends each upstream value transformed by a closure. Returned by ``Emitter/map(_:)``,
    /// ``Emitter/tap(_:)``, ``Emitter/ignoreOutput()`` and ``Emitter/mapErrorToNil``.
    public struct Map<Upstream: Emitter, Value: Sendable>: Emitter {
        @usableFromInline let upstream: Upstream
        @usableFromInline let transform: @Sendable (Upstream.Value) -> Value

        @inlinable
        init(upstream: Upstream, transform: @escaping @Sendable (Upstream.Value) -> Value) {
            self.upstream = upstream
            self.transform = transform
        }

        @inlinable
        public func register(_ handler: @escaping @Sendable (Value) -> Void) -> EmitterSubscription {
            let transform = self.transform
            return upstream.register { handler(transform($0)) }
        }
    }
}

extension Emitter {
    /// Transforms every value with a closure.
    ///
    /// ```swift
    /// emitter.map { $0 + 10 } += { value in print("Received some value plus '10'.") }
    /// ```
    ///
    /// - Parameter transform: Called once per value, per subscription.
    /// - Returns: An emitter of the transformed values.
    @inlinable
    public func map<Transformed>(
        _ transform: @escaping @Sendable (Value) -> Transformed
    ) -> Emitters.Map<Self, Transformed> {
        Emitters.Map(upstream: self, transform: transform)
    }
}
