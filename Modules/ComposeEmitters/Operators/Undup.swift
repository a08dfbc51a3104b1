extension Emitters {
    /// Drops values equal to the one before. Returned by ``Emitter/undup()``.
    public struct Undup<Upstream: Emitter>: Emitter where Upstream.Value: Equatable {
        public typealias Value = Upstream.Value

        @usableFromInline let upstream: Upstream

        @inlinable
        init(upstream: Upstream) {
            self.upstream = upstream
        }

        @inlinable
        public func register(_ handler: @escaping @Sendable (Value) -> Void) -> EmitterSubscription {
            let last = HandlerState<Value?>(nil)
            return upstream.register { value in
                guard last.value != value else { return }
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
    @inlinable
    public func undup() -> Emitters.Undup<Self> {
        Emitters.Undup(upstream: self)
    }
}
