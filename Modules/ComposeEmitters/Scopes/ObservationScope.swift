import ComposeMachinery

/// Owns the subscriptions made while it is current, and cancels them all when it ends.
///
/// A component host evaluates each component's `observers` inside the component's scope; when
/// the component leaves the tree its scope ends and every observer it set up is cancelled,
/// together with those of its child scopes. Outside components, a scope is a convenient owner
/// for a group of subscriptions:
///
/// ```swift
/// let scope = ObservationScope()
/// scope.run {
///     emitter += { value in print(value) }
///     other.debounce(interval: .seconds(1)) += { print("quiet") }
/// }
/// scope.end()  // both subscriptions are cancelled
/// ```
///
/// ## Rules
/// - Subscriptions made with `+=`, `~+=`, `!+=` or ``Emitter/subscribe(_:)`` join
///   ``ObservationScope/current``. It is a task-local value: tasks started inside ``run(_:)``
///   inherit it, so their subscriptions join the scope too.
/// - A subscription made in a scope that has already ended is never registered: it comes back
///   cancelled, and its handler is never called (not even with a current value `withCurrent()`
///   would hand over). One made while another thread ends the scope joins it or is cancelled,
///   and that `end()` waits for it to have done so, so the promise of ``end()`` covers it too.
/// - One exception: a handler that ends its scope while its own subscription is still being
///   registered (a `withCurrent()` handler that calls `end()` on the value handed over). Its
///   subscription is cancelled as its registration returns; until then, for the rest of that
///   registration, the handler may still hear what it sends itself or what the registration
///   hands over next (a `merge` of two `withCurrent()`). An `end()` does not wait for such a
///   registration (the thread making it is inside an `end()` itself), so two of them at once
///   do not wait for each other.
/// - A child scope ends when its parent ends. A child that ends first detaches from its parent.
/// - A scope ends when ``end()`` is called or when the last reference to it is released.
public final class ObservationScope: Sendable, CustomStringConvertible {
    /// The scope that new subscriptions join, if any.
    @TaskLocal
    public static var current: ObservationScope?

    private struct State {
        var subscriptions: [EmitterSubscription] = []
        /// When `subscriptions` reaches this size, cancelled ones are swept out, so a long-lived
        /// scope with a lot of churn does not grow without bound.
        var sweepThreshold = 64
        var children: [ObjectIdentifier: ObservationScope] = [:]
        var isEnded = false
        /// The threads making a subscription that will join this scope (see ``join(_:)``), with
        /// how many each is making (an operator's registration makes its upstream's).
        var joining: [UInt: Int] = [:]
        /// The threads inside `end()`, with how many calls each: an `end()` does not wait for their
        /// joins (the exception in the rules above).
        var ending: [UInt: Int] = [:]
        /// The `end()` calls waiting for `joining` to empty.
        var endsWaiting = 0
        /// Subscriptions that finished joining after the scope ended: each `end()` that waited for
        /// them cancels them (the joining thread does too).
        var joinedLate: [EmitterSubscription] = []
    }

    /// Guards `state`; `end()` waits on it for subscriptions being made on other threads.
    private let lock = ConditionLock()
    nonisolated(unsafe) private var stateUnderLock = State()
    private weak let parent: ObservationScope?

    /// A name for debugging, such as the component type.
    public let label: String?

    /// Creates a scope.
    ///
    /// - Parameters:
    ///   - label: A name for debugging.
    ///   - parent: A scope whose end also ends this one. If it has already ended, so has this one.
    public init(label: String? = nil, parent: ObservationScope? = nil) {
        self.label = label
        self.parent = parent
        parent?.attach(self)
    }

    deinit {
        end()
    }

    /// Creates a scope that ends when this one ends.
    public func makeChild(label: String? = nil) -> ObservationScope {
        ObservationScope(label: label, parent: self)
    }

    /// Runs `body` with this scope as ``current``.
    ///
    /// - Returns: What `body` returns.
    @discardableResult
    public func run<Result>(_ body: () throws -> Result) rethrows -> Result {
        try Self.$current.withValue(self, operation: body)
    }

    /// Runs the asynchronous `body` with this scope as ``current``.
    ///
    /// - Returns: What `body` returns.
    @discardableResult
    public func run<Result>(
        isolation: isolated (any Actor)? = #isolation,
        _ body: () async throws -> Result
    ) async rethrows -> Result {
        try await Self.$current.withValue(self, operation: body, isolation: isolation)
    }

    /// Runs `body` with no current scope, so that a task it starts does not hold ``current`` (a
    /// task keeps the task-local values it starts with): for the tasks an emitter keeps running for
    /// its subscribers (a timer's, a sequence's, an alarm's), which would otherwise keep the scope
    /// they were subscribed in from being released, and so from ending.
    package static func outsideAnyScope<Result>(_ body: () -> Result) -> Result {
        $current.withValue(nil, operation: body)
    }

    /// Makes `subscription` part of this scope; cancels it at once if the scope has ended.
    ///
    /// For a subscription made elsewhere: its handler may have been called before it joined.
    /// `+=` and the other ways of subscribing join the current scope as they register, and
    /// register nothing once it has ended.
    ///
    /// - Complexity: Amortized O(1).
    public func adopt(_ subscription: EmitterSubscription) {
        if !accept(subscription) { subscription.cancel() }
    }

    /// Adds `subscription` unless the scope has ended; `false` if it has.
    private func accept(_ subscription: EmitterSubscription) -> Bool {
        withState { state in
            guard !state.isEnded else { return false }
            state.subscriptions.append(subscription)
            if state.subscriptions.count >= state.sweepThreshold {
                // Only settled ones: a later end() must still wait for a call in progress.
                state.subscriptions.removeAll { $0.isSettled }
                state.sweepThreshold = max(64, state.subscriptions.count * 2)
            }
            return true
        }
    }

    /// Makes the subscription `register` makes part of ``current``, if there is a current scope:
    /// what every way of subscribing calls.
    ///
    /// If the scope has ended, `register` is not called and the result is a cancelled
    /// subscription that registered nothing. Otherwise the scope's `end()`, called meanwhile on
    /// another thread, waits until the subscription has joined (or, the scope having ended, been
    /// cancelled).
    @usableFromInline
    package static func joiningCurrent(_ register: () -> EmitterSubscription) -> EmitterSubscription {
        guard let scope = current else { return register() }
        return scope.join(register)
    }

    /// ``joiningCurrent(_:)`` for this scope.
    package func join(_ register: () -> EmitterSubscription) -> EmitterSubscription {
        let thread = ThreadIdentity.current
        let isOpen = withState { state in
            guard !state.isEnded else { return false }
            state.joining[thread, default: 0] += 1
            return true
        }
        guard isOpen else {
            let nothing = EmitterSubscription(onCancel: {})
            nothing.cancel()
            return nothing
        }
        let subscription = register()
        let accepted = accept(subscription)
        lock.withLock {
            if !accepted { stateUnderLock.joinedLate.append(subscription) }
            stateUnderLock.joining[thread]! -= 1
            if stateUnderLock.joining[thread] == 0 { stateUnderLock.joining[thread] = nil }
            lock.broadcast()
        }
        // After letting the waiting ends go, which cancel it too: one of them may be made by this
        // subscription's handler on its actor, which this cancel would wait for.
        if !accepted { subscription.cancel() }
        return subscription
    }

    /// Cancels every subscription of this scope and ends its child scopes. Idempotent.
    ///
    /// Every call cancels every subscription the scope had, so a call made while another thread's
    /// is still under way returns no sooner than cancelling them does: once any `end()` has
    /// returned, no handler of the scope written on an actor is called (see
    /// ``EmitterSubscription``). Subscriptions being made on other threads when it is called are
    /// waited for and cancelled too, and later ones are never registered (see the exception in
    /// the rules above, for a handler that ends its scope while being registered). The scope keeps a
    /// cancelled subscription until it is released or until nothing is left to wait for (no call
    /// of its handler in progress on an actor).
    ///
    /// - Complexity: O(*n*) in the number of subscriptions and descendants.
    public func end() {
        let owned = withState { state in
            let isFirst = !state.isEnded
            state.isEnded = true
            return (subscriptions: state.subscriptions, children: Array(state.children.values), isFirst: isFirst)
        }
        for subscription in owned.subscriptions { subscription.cancel() }
        for child in owned.children { child.end() }
        // Wait for the subscriptions still joining, but for those of threads inside an end()
        // themselves (their handlers called it while being registered), which would wait for this
        // one; then cancel those that joined after the end, here too: if this end() is made by
        // such a subscription's handler on its actor, cancelling it here returns at once, while
        // the joining thread's cancel waits for that handler.
        let thread = ThreadIdentity.current
        let joinedLate = lock.withLock {
            stateUnderLock.ending[thread, default: 0] += 1
            lock.broadcast()
            while stateUnderLock.joining.keys.contains(where: { $0 != thread && stateUnderLock.ending[$0] == nil }) {
                stateUnderLock.endsWaiting += 1
                lock.wait()
                stateUnderLock.endsWaiting -= 1
            }
            stateUnderLock.ending[thread]! -= 1
            if stateUnderLock.ending[thread] == 0 { stateUnderLock.ending[thread] = nil }
            return stateUnderLock.joinedLate
        }
        for subscription in joinedLate { subscription.cancel() }
        if owned.isFirst { parent?.detach(self) }
    }

    /// Whether ``end()`` has been called.
    public var isEnded: Bool {
        withState { $0.isEnded }
    }

    /// The subscriptions of this scope and its descendants that are still active.
    ///
    /// A leak check: after a scope ends, this is zero.
    public var activeSubscriptionCount: Int {
        let (own, children) = withState { state in
            (state.subscriptions.count { !$0.isCancelled }, Array(state.children.values))
        }
        return children.reduce(own) { $0 + $1.activeSubscriptionCount }
    }

    /// How many `end()` calls wait for subscriptions being made on other threads: what a test
    /// reads to know that an end overlaps a subscription.
    var endsWaitingForJoins: Int {
        withState { $0.endsWaiting }
    }

    /// The subscriptions held, cancelled ones included, until the next sweep.
    var retainedSubscriptionCount: Int {
        withState { $0.subscriptions.count }
    }

    /// The number of child scopes that have not ended.
    public var childCount: Int {
        withState { $0.children.count }
    }

    public var description: String {
        "ObservationScope(\(label ?? "unnamed"))"
    }

    private func attach(_ child: ObservationScope) {
        let accepted = withState { state in
            guard !state.isEnded else { return false }
            state.children[ObjectIdentifier(child)] = child
            return true
        }
        if !accepted { child.end() }
    }

    private func detach(_ child: ObservationScope) {
        let removed = withState { $0.children.removeValue(forKey: ObjectIdentifier(child)) }
        _ = removed
    }

    /// Runs `body` on the state under the lock; `body` must not block or call user code.
    private func withState<Result>(_ body: (inout State) -> Result) -> Result {
        lock.withLock { body(&stateUnderLock) }
    }
}
