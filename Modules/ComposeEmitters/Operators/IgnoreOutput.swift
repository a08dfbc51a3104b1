extension Emitter {
    /// Turns every value into a signal.
    ///
    /// ```swift
    /// emitter.ignoreOutput() += { print("Some values were sent!") }
    /// ```
    @inlinable
    public func ignoreOutput() -> Emitters.Map<Self, Void> {
        map { _ in () }
    }
}
