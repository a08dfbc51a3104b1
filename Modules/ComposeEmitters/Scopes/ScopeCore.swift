import ComposeMachinery

/// What an ``ObservationScope`` owns, and how it ends: its subscriptions, the gates of the
/// registrations under way, and its children's cores.
///
/// A scope's parent keeps this core, not the scope: releasing a child scope ends it (the scope's
/// deinit ends its core), while a parent's end still reaches the core of a child being released
/// at that moment and waits as the child's own end does.
final class ScopeCore: Sendable {
    private struct State {
        var subscriptions: [EmitterSubscription] = []
        /// When `subscriptions` reaches this size, cancelled ones are swept out, so a long-lived
        /// scope with a lot of churn does not grow without bound.
        var sweepThreshold = 64
        /// The cores of the children that have not ended (a child detaches as it ends).
        var children: [ObjectIdentifier: ScopeCore] = [:]
        var isEnded = false
        /// The gates of the subscriptions being registered in this scope (see ``ObservationScope/join(_:_:)``),
        /// which every `end()` closes.
        var registering: [RegistrationGate] = []

        /// When `children` reaches this size, ended and settled ones are swept out.
        var childSweepThreshold = 64

        /// Keeps `subscription`, sweeping out the settled ones now and then. After the end too:
        /// every later `end()` cancels it again (and so waits for its handler's call in progress).
        ///
        /// - Returns: The subscriptions swept out, for the caller to release after unlocking
        ///   (releasing one may run any deinit, one that ends another scope included).
        mutating func keep(_ subscription: EmitterSubscription) -> [EmitterSubscription] {
            subscriptions.append(subscription)
            guard subscriptions.count >= sweepThreshold else { return [] }
            // Only settled ones: a later end() must still do what a cancel under way has not,
            // and wait for a call in progress.
            var swept: [EmitterSubscription] = []
            subscriptions.removeAll { subscription in
                guard subscription.isSettled else { return false }
                swept.append(subscription)
                return true
            }
            sweepThreshold = max(64, subscriptions.count * 2)
            return swept
        }

        /// Keeps `child`, sweeping out the children that ended and settled now and then.
        ///
        /// - Returns: The children swept out, to release after unlocking.
        mutating func attach(_ child: ScopeCore) -> [ScopeCore] {
            children[ObjectIdentifier(child)] = child
            guard children.count >= childSweepThreshold else { return [] }
            let swept = children.values.filter { $0 !== child && $0.isSettled }
            for core in swept { children.removeValue(forKey: ObjectIdentifier(core)) }
            childSweepThreshold = max(64, children.count * 2)
            return swept
        }
    }

    private let state = LockedState(State())
    private weak let parent: ScopeCore?
    /// What the scope's handlers run inside (see ``ObservationScope/handlerContext``).
    let handlerContext: HandlerContext?

    init(parent: ScopeCore?, handlerContext: HandlerContext?) {
        self.parent = parent
        self.handlerContext = handlerContext
        parent?.attach(self)
    }

    /// ``ObservationScope/adopt(_:)``.
    func adopt(_ subscription: EmitterSubscription) {
        if !accept(subscription) { subscription.cancel() }
    }

    /// Adds `subscription` unless the scope has ended; `false` if it has.
    private func accept(_ subscription: EmitterSubscription) -> Bool {
        let (accepted, swept) = withState { state in
            guard !state.isEnded else { return (false, []) }
            return (true, state.keep(subscription))
        }
        _ = consume swept  // released here, outside the lock
        return accepted
    }

    /// ``ObservationScope/join(_:_:)``: registers behind a gate unless the scope has ended.
    func join<Value>(
        _ subscriber: IsolatedSubscriber<Value>,
        _ register: (IsolatedSubscriber<Value>) -> EmitterSubscription
    ) -> EmitterSubscription {
        let gate = RegistrationGate(stopping: subscriber.relay)
        let isOpen = withState { state in
            guard !state.isEnded else { return false }
            state.registering.append(gate)
            return true
        }
        guard isOpen else {
            let nothing = EmitterSubscription(onCancel: {})
            nothing.cancel()
            return nothing
        }
        let subscription = RegistrationGate.$registering.withValue(gate) { register(subscriber.gated(by: gate)) }
        let (isEnded, swept) = withState { state in
            if let index = state.registering.firstIndex(where: { $0 === gate }) {
                state.registering.swapAt(index, state.registering.count - 1)
                state.registering.removeLast()
            }
            return (state.isEnded, state.keep(subscription))
        }
        _ = consume swept  // released here, outside the lock
        gate.finish()
        if isEnded {
            subscription.cancel()
            // The end could not let the scope leave its parent while this registration was under way.
            if isSettled { parent?.detach(self) }
        }
        return subscription
    }

    /// ``ObservationScope/end()``.
    func end() {
        let owned = withState { state in
            let isFirst = !state.isEnded
            state.isEnded = true
            return (
                subscriptions: state.subscriptions, registering: state.registering,
                children: Array(state.children.values), isFirst: isFirst
            )
        }
        for gate in owned.registering { gate.close() }
        for subscription in owned.subscriptions { subscription.cancel() }
        for child in owned.children { child.end() }
        // A scope leaves its parent once nothing is left for a later end() to wait for: until
        // then (a handler of it still runs on its actor, say, having ended its own scope), the
        // parent's end() reaches it and waits as its own later end() would.
        if isSettled { parent?.detach(self) }
    }

    /// Whether the scope has ended and a later `end()` would find nothing to do or wait for:
    /// every subscription settled, no registration under way, every child settled.
    var isSettled: Bool {
        let owned = withState { state -> ([EmitterSubscription], [ScopeCore])? in
            guard state.isEnded, state.registering.isEmpty else { return nil }
            return (state.subscriptions, Array(state.children.values))
        }
        guard let (subscriptions, children) = owned else { return false }
        return subscriptions.allSatisfy(\.isSettled) && children.allSatisfy(\.isSettled)
    }

    /// Whether ``ObservationScope/end()`` has been called.
    var isEnded: Bool {
        withState { $0.isEnded }
    }

    /// The subscriptions of this scope and its descendants that are still active.
    ///
    /// A leak check: after a scope ends, this is zero.
    var activeSubscriptionCount: Int {
        let (own, children) = withState { state in
            (state.subscriptions.count { !$0.isCancelled }, Array(state.children.values))
        }
        return children.reduce(own) { $0 + $1.activeSubscriptionCount }
    }

    /// How many subscriptions are being registered in this scope: what a test reads to know that
    /// an end overlaps a registration.
    var registeringCount: Int {
        withState { $0.registering.count }
    }

    /// The subscriptions held, cancelled ones included, until the next sweep.
    var retainedSubscriptionCount: Int {
        withState { $0.subscriptions.count }
    }

    /// The number of child scopes kept: not ended, or not settled.
    var childCount: Int {
        withState { $0.children.count }
    }

    private func attach(_ child: ScopeCore) {
        let (accepted, swept) = withState { state in
            guard !state.isEnded else { return (false, []) }
            return (true, state.attach(child))
        }
        _ = consume swept  // released here, outside the lock
        if !accepted { child.end() }
    }

    private func detach(_ child: ScopeCore) {
        let removed = withState { $0.children.removeValue(forKey: ObjectIdentifier(child)) }
        _ = removed
    }

    /// Runs `body` on the state under the lock; `body` must not block or call user code.
    private func withState<Result>(_ body: (inout State) -> Result) -> Result {
        state.withLock(body)
    }
}
