extension Emitter {
    /// The values this emitter sends, as an async sequence.
    ///
    /// ```swift
    /// for await message in printMessage.values {
    ///     print(message)
    /// }
    /// ```
    ///
    /// The subscription is made when you access `values` (joining the current
    /// ``ObservationScope``). Values are buffered without bound until the loop takes them.
    /// The subscription is cancelled when the task that iterates is cancelled, or when the sequence
    /// is released (leaving `for await value in emitter.values` releases it). Cancelling the
    /// subscription, for instance by ending its scope, finishes the sequence.
    public var values: AsyncStream<Value> {
        values(bufferingPolicy: .unbounded)
    }

    /// The values this emitter sends, as an async sequence with the given buffering.
    ///
    /// - Parameter bufferingPolicy: What to keep when values arrive faster than they are taken,
    ///   for example `.bufferingNewest(1)` for a latest-value stream.
    public func values(bufferingPolicy: AsyncStream<Value>.Continuation.BufferingPolicy) -> AsyncStream<Value> {
        AsyncStream(bufferingPolicy: bufferingPolicy) { continuation in
            let yield = IsolatedSubscriber<Value>(handler: { continuation.yield($0) })
            let subscription = ObservationScope.joiningCurrent(yield) { yield in
                let registration = register(yield.handler)
                return EmitterSubscription(cancelling: registration) { continuation.finish() }
            }
            // Cancelled already: made in a scope that has ended, the stream has nothing to wait for.
            if subscription.isCancelled { continuation.finish() }
            continuation.onTermination = { _ in subscription.cancel() }
        }
    }
}
