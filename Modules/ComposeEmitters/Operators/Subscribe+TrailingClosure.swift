extension Emitter {
    /// Observes every value, written as a call with a trailing closure: the original Compose's
    /// `openSignUp { router.replace(\Self.signUp) }`.
    ///
    /// Exactly `emitter += handler`: the subscription joins the current ``ObservationScope``.
    /// There is no form without a closure, so calling an emitter never sends; send with
    /// `send(_:)`.
    ///
    /// ```swift
    /// var observers: Void {
    ///     logIn.openSignUp {
    ///         router.replace(\Self.signUp)
    ///     }
    /// }
    /// ```
    ///
    /// - Returns: The subscription, which can be ignored.
    @inlinable
    @discardableResult
    public func callAsFunction(
        @_inheritActorContext _ handler: @escaping @isolated(any) @Sendable (Value) -> Void
    ) -> EmitterSubscription {
        subscribe(handler)
    }
}

extension Emitter where Value == Void {
    /// Observes every signal, written as a call with a trailing closure: `openSignUp { ... }`.
    ///
    /// Exactly `signal += handler`.
    ///
    /// - Returns: The subscription, which can be ignored.
    @inlinable
    @discardableResult
    public func callAsFunction(
        @_inheritActorContext _ handler: @escaping @isolated(any) @Sendable () -> Void
    ) -> EmitterSubscription {
        subscribe(IsolatedHandler.subscriber(handler))
    }
}
