infix operator ~+= : AssignmentPrecedence

extension ValueEmitter {
    /// Observes every value together with the previous one: `emitter ~+= { new, previous in ... }`.
    ///
    /// ```swift
    /// let count = ValueEmitter<Int>()
    /// count ~+= { new, previous in print("changed from \(previous ?? 0) to \(new)") }
    /// count.send(1)  // changed from 0 to 1   (previous is nil)
    /// count.send(3)  // changed from 1 to 3
    /// ```
    ///
    /// `previous` is the value sent before `new`: for the first value a new subscription receives,
    /// the value that was current when it subscribed, or `nil` if nothing had been sent.
    ///
    /// - Returns: The subscription, which can be ignored.
    @discardableResult
    public static func ~+= (
        emitter: ValueEmitter<Value>,
        @_inheritActorContext handler: @escaping @isolated(any) @Sendable (_ new: Value, _ previous: Value?) -> Void
    ) -> EmitterSubscription {
        // In a struct, so the function is not reabstracted on the way (see `IsolatedHandler`).
        let call = unsafeBitCast(IsolatedChangeHandler(function: handler), to: ChangeHandler<Value>.self).function
        let subscriber = IsolatedHandler.subscriber(
            isolation: handler.isolation,
            call: { (change: (new: Value, previous: Value?)) in call(change.new, change.previous) },
            asyncCall: { (change: (new: Value, previous: Value?)) in await handler(change.new, change.previous) }
        )
        let deliver = subscriber.handler
        let previous = HandlerState<Value?>(nil)
        let subscription = emitter.core.register(
            { value in
                let old = previous.value
                previous.value = value
                deliver((value, old))
            },
            whileRegistering: { current in previous.value = current }
        )
        subscriber.attach(subscription)
        ObservationScope.current?.adopt(subscription)
        return subscription
    }
}

/// A `~+=` handler as the operator receives it, in a struct.
private struct IsolatedChangeHandler<Value> {
    let function: @isolated(any) @Sendable (_ new: Value, _ previous: Value?) -> Void
}

/// ``IsolatedChangeHandler`` reinterpreted as nonisolated.
private struct ChangeHandler<Value> {
    let function: @Sendable (_ new: Value, _ previous: Value?) -> Void
}
