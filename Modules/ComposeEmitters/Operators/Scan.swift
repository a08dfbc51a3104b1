extension Emitters {
    /// Sends a running accumulation of the values. Returned by ``Emitter/scan(_:_:)``.
    public struct Scan<Upstream: Emitter, Value: Sendable>: Emitter {
        @usableFromInline let upstream: Upstream
        @usableFromInline let initial: Value
        @usableFromInline let next: @Sendable (Value, Upstream.Value) -> Value

        @inlinable
        init(upstream: Upstream, initial: Value, next: @escaping @Sendable (Value, Upstream.Value) -> Value) {
            self.upstream = upstream
            self.initial = initial
            self.next = next
        }

        @inlinable
        public func register(_ handler: @escaping @Sendable (Value) -> Void) -> EmitterSubscription {
            let accumulated = HandlerState(initial)
            let next = self.next
            return upstream.register { value in
                accumulated.value = next(accumulated.value, value)
                handler(accumulated.value)
            }
        }
    }
}

extension Emitter {
    /// Sends the result of combining each value with the previous result, starting from `initial`.
    ///
    /// ```swift
    /// taps.scan(0) { count, _ in count + 1 } += { count in print("tapped \(count) times") }
    /// ```
    ///
    /// Each subscription accumulates on its own, from `initial`.
    @inlinable
    public func scan<Accumulated: Sendable>(
        _ initial: Accumulated,
        _ next: @escaping @Sendable (Accumulated, Value) -> Accumulated
    ) -> Emitters.Scan<Self, Accumulated> {
        Emitters.Scan(upstream: self, initial: initial, next: next)
    }
}
