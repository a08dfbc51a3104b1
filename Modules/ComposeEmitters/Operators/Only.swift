extension Emitter where Value: Equatable {
    /// Sends a signal each time `value` is sent.
    ///
    /// ```swift
    /// emitter.only(.two) += { print("Two received.") }
    /// ```
    @inlinable
    public func only(_ value: Value) -> Emitters.Map<Emitters.Filter<Self>, Void> {
        filter { $0 == value }.ignoreOutput()
    }

    /// Sends every value except `value`.
    ///
    /// ```swift
    /// emitter.not(.three) += { value in print("Not 'three' received.") }
    /// ```
    @inlinable
    public func not(_ value: Value) -> Emitters.Filter<Self> {
        filter { $0 != value }
    }
}
