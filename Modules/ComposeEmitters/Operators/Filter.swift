extension Emitters {
    /// Sends the upstream values that satisfy a predicate. Returned by ``Emitter/filter(_:)`` and
    /// ``Emitter/not(_:)``.
    public struct Filter<Upstream: Emitter>: Emitter {
        public typealias Value = Upstream.Value

        @usableFromInline let upstream: Upstream
        @usableFromInline let isIncluded: @Sendable (Value) -> Bool

        @inlinable
        init(upstream: Upstream, isIncluded: @escaping @Sendable (Value) -> Bool) {
            self.upstream = upstream
            self.isIncluded = isIncluded
        }

        @inlinable
        public func register(_ handler: @escaping @Sendable (Value) -> Void) -> EmitterSubscription {
            let isIncluded = self.isIncluded
            return upstream.register { value in
                if isIncluded(value) { handler(value) }
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
    /// - Parameter isIncluded: Called once per value, per subscription.
    @inlinable
    public func filter(_ isIncluded: @escaping @Sendable (Value) -> Bool) -> Emitters.Filter<Self> {
        Emitters.Filter(upstream: self, isIncluded: isIncluded)
    }
}
