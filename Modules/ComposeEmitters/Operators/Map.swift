import ComposeMachinery

extension Emitters {
    /// Sends each upstream value transformed by a closure. Returned by ``Emitter/map(_:)``,
    /// ``Emitter/tap(_:isolation:)``, ``Emitter/ignoreOutput()`` and ``Emitter/mapErrorToNil``.
    public struct Map<Upstream: Emitter, Value: Sendable>: Emitter {
        @usableFromInline let upstream: Upstream
        @usableFromInline let transform: AssumedIsolationReturning<Upstream.Value, Value>

        @inlinable
        init(upstream: Upstream, transform: AssumedIsolationReturning<Upstream.Value, Value>) {
            self.upstream = upstream
            self.transform = transform
        }

        @inlinable
        public func register(_ handler: @escaping @Sendable (Value) -> Void) -> EmitterSubscription {
            let transform = self.transform
            return IsolatedHandler.register(on: upstream, isolation: transform.isolation) { value in
                handler(transform.callAssumingIsolation(value))
            }
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
    /// The closure runs where it was written, as a handler does: written in main-actor code, it
    /// runs on the main actor and may read main-actor state; written in nonisolated code, it runs
    /// on the delivering thread.
    ///
    /// - Parameter transform: Called once per value, per subscription.
    /// - Returns: An emitter of the transformed values.
    @inlinable
    public func map<Transformed>(
        @_inheritActorContext _ transform: @escaping @isolated(any) @Sendable (Value) -> Transformed
    ) -> Emitters.Map<Self, Transformed> {
        Emitters.Map(upstream: self, transform: AssumedIsolationReturning(transform))
    }
}
