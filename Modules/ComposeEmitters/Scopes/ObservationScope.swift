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
/// - A subscription that joins a scope that has already ended is cancelled at once.
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
    }

    private let state = LockedState<State>(State())
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

    /// Makes `subscription` part of this scope; cancels it at once if the scope has ended.
    ///
    /// - Complexity: Amortized O(1).
    public func adopt(_ subscription: EmitterSubscription) {
        let accepted = state.withLock { state in
            guard !state.isEnded else { return false }
            state.subscriptions.append(subscription)
            if state.subscriptions.count >= state.sweepThreshold {
                // Only settled ones: a later end() must still wait for a call in progress.
                state.subscriptions.removeAll { $0.isSettled }
                state.sweepThreshold = max(64, state.subscriptions.count * 2)
            }
            return true
        }
        if !accepted { subscription.cancel() }
    }

    /// Cancels every subscription of this scope and ends its child scopes. Idempotent.
    ///
    /// Every call cancels every subscription the scope had, so a call made while another thread's
    /// is still under way returns no sooner than cancelling them does: once any `end()` has
    /// returned, no handler of the scope written on an actor is called (see
    /// ``EmitterSubscription``). The scope keeps a cancelled subscription until it is released or
    /// until nothing is left to wait for (no call of its handler in progress on an actor).
    ///
    /// - Complexity: O(*n*) in the number of subscriptions and descendants.
    public func end() {
        let owned = state.withLock { state in
            let isFirst = !state.isEnded
            state.isEnded = true
            return (subscriptions: state.subscriptions, children: Array(state.children.values), isFirst: isFirst)
        }
        for subscription in owned.subscriptions { subscription.cancel() }
        for child in owned.children { child.end() }
        if owned.isFirst { parent?.detach(self) }
    }

    /// Whether ``end()`` has been called.
    public var isEnded: Bool {
        state.withLock { $0.isEnded }
    }

    /// The subscriptions of this scope and its descendants that are still active.
    ///
    /// A leak check: after a scope ends, this is zero.
    public var activeSubscriptionCount: Int {
        let (own, children) = state.withLock { state in
            (state.subscriptions.count { !$0.isCancelled }, Array(state.children.values))
        }
        return children.reduce(own) { $0 + $1.activeSubscriptionCount }
    }

    /// The subscriptions held, cancelled ones included, until the next sweep.
    var retainedSubscriptionCount: Int {
        state.withLock { $0.subscriptions.count }
    }

    /// The number of child scopes that have not ended.
    public var childCount: Int {
        state.withLock { $0.children.count }
    }

    public var description: String {
        "ObservationScope(\(label ?? "unnamed"))"
    }

    private func attach(_ child: ObservationScope) {
        let accepted = state.withLock { state in
            guard !state.isEnded else { return false }
            state.children[ObjectIdentifier(child)] = child
            return true
        }
        if !accepted { child.end() }
    }

    private func detach(_ child: ObservationScope) {
        let removed = state.withLock { $0.children.removeValue(forKey: ObjectIdentifier(child)) }
        _ = removed
    }
}
