extension Emitter {
    /// Observes every value: `emitter += { value in ... }`.
    ///
    /// The same as ``subscribe(_:)``: the subscription joins the current ``ObservationScope``, and
    /// the handler runs where it was written (on the main actor when written in main-actor code).
    ///
    /// - Returns: The subscription, which can be ignored.
    @inlinable
    @discardableResult
    public static func += (
        emitter: Self,
        @_inheritActorContext handler: @escaping @isolated(any) @Sendable (Value) -> Void
    ) -> EmitterSubscription {
        emitter.subscribe(handler)
    }
}

extension Emitter where Value == Void {
    /// Observes every signal: `signal += { ... }`.
    ///
    /// - Returns: The subscription, which can be ignored.
    @inlinable
    @discardableResult
    public static func += (
        emitter: Self,
        @_inheritActorContext handler: @escaping @isolated(any) @Sendable () -> Void
    ) -> EmitterSubscription {
        emitter.subscribe(IsolatedHandler.subscriber(handler))
    }
}
