import ComposeMachinery

extension Relay {
    /// Starts the relay with `handler`, and returns the subscription that stops it: how an
    /// operator with several inputs (`merge`, `debounce`, ...) funnels them to its downstream
    /// handler, one at a time.
    ///
    /// Once the subscription's `cancel()` has returned, no event handled afterwards reaches
    /// `handler`.
    package func register(_ handler: @escaping @Sendable (Event) -> Void) -> EmitterSubscription {
        start(handler)
        return EmitterSubscription { [self] in stop() }
    }
}
