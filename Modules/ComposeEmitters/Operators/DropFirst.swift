extension Emitters {
    /// Drops a number of values, then sends the rest. Returned by ``Emitter/dropFirst(_:)``.
    public struct DropFirst<Upstream: Emitter>: Emitter {
        public typealias Value = Upstream.Value

        @usableFromInline let upstream: Upstream
        @usableFromInline let count: Int

        @inlinable
        init(upstream: Upstream, count: Int) {
            precondition(count >= 0, "dropFirst(_:) needs a count of zero or more, not \(count)")
            self.upstream = upstream
            self.count = count
        }

        @inlinable
        public func register(_ handler: @escaping @Sendable (Value) -> Void) -> EmitterSubscription {
            let remaining = HandlerState(count)
            return upstream.register { value in
                guard remaining.value == 0 else {
                    remaining.value -= 1
                    return
                }
                handler(value)
            }
        }
    }
}

extension Emitter {
    /// Drops the first `count` values each subscription would receive.
    ///
    /// ```swift
    /// emitter.dropFirst() += { print("Second signal received!") }
    /// ```
    ///
    /// - Parameter count: How many values to drop; zero or more.
    @inlinable
    public func dropFirst(_ count: Int = 1) -> Emitters.DropFirst<Self> {
        Emitters.DropFirst(upstream: self, count: count)
    }
}
