extension Emitter {
    /// Observes every value: `emitter += { value in ... }`.
    ///
    /// The same as ``subscribe(_:)``: the subscription joins the current ``ObservationScope``.
    ///
    /// - Returns: The subscription, which can be ignored.
    @inlinable
    @discardableResult
    public static func += (emitter: Self, handler: @escaping @Sendable (Value) -> Void) -> EmitterSubscription {
        emitter.subscribe(handler)
    }
}

extension Emitter where Value == Void {
    /// Observes every signal: `signal += { ... }`.
    ///
    /// - Returns: The subscription, which can be ignored.
    @inlinable
    @discardableResult
    public static func += (emitter: Self, handler: @escaping @Sendable () -> Void) -> EmitterSubscription {
        emitter.subscribe { _ in handler() }
    }
}
