extension Emitter {
    /// Sends the values that are not `nil`, unwrapped.
    ///
    /// ```swift
    /// let emitter = ValueEmitter<Int?>()
    /// emitter.nonNull() += { value in print(value) }  // value is an Int
    /// ```
    @inlinable
    public func nonNull<Wrapped: Sendable>() -> Emitters.CompactMap<Self, Wrapped> where Value == Wrapped? {
        compactMap { $0 }
    }
}
