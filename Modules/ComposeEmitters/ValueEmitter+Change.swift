import ComposeMachinery

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
        let subscriber = IsolatedHandler.subscriber(AssumedIsolation<(Value, Value?)>.pair(handler))
        let previous = HandlerState<Value?>(nil)
        return ObservationScope.joiningCurrent(subscriber) { subscriber in
            let deliver = subscriber.handler
            let registration = emitter.core.register(
                { value in
                    let old = previous.value
                    previous.value = value
                    deliver((value, old))
                },
                whileRegistering: { current in previous.value = current }
            )
            return subscriber.subscription(for: registration)
        }
    }
}
