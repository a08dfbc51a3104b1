import ComposeMachinery

extension Relay {
    /// Starts the relay with `handler`, and returns the subscription that stops it: how an
    /// operator with several inputs (`merge`, `debounce`, ...) funnels them to its downstream
    /// handler, one at a time.
    ///
    /// Once any `cancel()` of the subscription has returned, no event handled afterwards reaches
    /// `handler` (every one stops the relay, see ``Relay/stop()``).
    package func register(_ handler: @escaping @Sendable (Event) -> Void) -> EmitterSubscription {
        start(handler)
        let stopping: @Sendable () -> Void = { [self] in self.stop() }
        return EmitterSubscription(
            payload: CancelAction(stopping, again: stopping, isSettled: { [self] in self.isStoppedAndIdle }))
    }
}
