import ComposeMachinery

/// Holds one subscription that an operator may replace or cancel from another thread.
///
/// `flatMap` keeps its newest inner subscription here; `once` and `dropUntil` keep the
/// subscription their own handler cancels, which may fire before `register` has even returned it.
/// Once the slot is cancelled, whatever is put in it is cancelled at once.
final class SubscriptionSlot: Sendable {
    private let state = LockedState<(subscription: EmitterSubscription?, cancelled: Bool)>((nil, false))

    init() {}

    /// Keeps `subscription` and cancels the one it replaces (or `subscription` itself, if the
    /// slot was cancelled).
    func replace(with subscription: EmitterSubscription) {
        let superseded: EmitterSubscription? = state.withLock { state in
            if state.cancelled { return subscription }
            defer { state.subscription = subscription }
            return state.subscription
        }
        superseded?.cancel()
    }

    /// Cancels the subscription held, and every later one.
    func cancel() {
        let subscription = state.withLock { state in
            state.cancelled = true
            defer { state.subscription = nil }
            return state.subscription
        }
        subscription?.cancel()
    }
}
