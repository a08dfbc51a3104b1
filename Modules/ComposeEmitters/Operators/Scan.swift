import ComposeMachinery

extension Emitters {
    /// Sends a running accumulation of the values. Returned by ``Emitter/scan(_:_:)``.
    public struct Scan<Upstream: Emitter, Value: Sendable>: Emitter {
        @usableFromInline let upstream: Upstream
        @usableFromInline let initial: Value
        @usableFromInline let next: AssumedIsolationReturning<(Value, Upstream.Value), Value>

        @inlinable
        init(upstream: Upstream, initial: Value, next: AssumedIsolationReturning<(Value, Upstream.Value), Value>) {
            self.upstream = upstream
            self.initial = initial
            self.next = next
        }

        @inlinable
        public func register(_ handler: @escaping @Sendable (Value) -> Void) -> EmitterSubscription {
            let accumulated = HandlerState(initial)
            let next = self.next
            return IsolatedHandler.register(on: upstream, isolation: next.isolation) { value in
                accumulated.value = next.callAssumingIsolation((accumulated.value, value))
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
    /// Each subscription accumulates on its own, from `initial`. The closure runs where it was
    /// written, as ``map(_:)``'s does.
    @inlinable
    public func scan<Accumulated: Sendable>(
        _ initial: Accumulated,
        @_inheritActorContext _ next: @escaping @isolated(any) @Sendable (Accumulated, Value) -> Accumulated
    ) -> Emitters.Scan<Self, Accumulated> {
        Emitters.Scan(upstream: self, initial: initial, next: .pair(next))
    }
}
