extension Emitter {
    /// Sends the value at `keyPath` of every value.
    ///
    /// ```swift
    /// emitter.tap(\.firstName) += { firstName in print("First name: \(firstName)") }
    /// ```
    ///
    /// Combine with `undup()` to hear only changes of one property:
    /// `$state.willChange.tap(\.firstName).undup()`.
    @inlinable
    public func tap<Property: Sendable>(
        _ keyPath: any KeyPath<Value, Property> & Sendable
    ) -> Emitters.Map<Self, Property> {
        map { $0[keyPath: keyPath] }
    }
}
