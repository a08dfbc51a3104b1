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
///   would hand over).
/// - A subscription being registered while the scope ends (on another thread, or by its own
///   handler as it hears the value `withCurrent()` hands over) is stopped by that `end()` as the
///   scope's other subscriptions are, though its registration has not returned yet (it registers
///   behind a gate the end closes, see ``end()``); as the registration returns, it is cancelled.
///   `end()` never waits for a registration.
/// - A scope ends when ``end()`` is called or when the last reference to it is released. A
///   parent does not keep its children: a child ends when its parent ends, or when it is
///   released, whichever comes first. One that ends first detaches from its parent once nothing
///   of it is left to wait for: while a handler of it still runs on its actor (one that ended
///   its own scope, say), the parent's `end()` still reaches it and waits for that call.
public final class ObservationScope: Sendable, CustomStringConvertible {
    /// The scope that new subscriptions join, if any.
    ///
    /// The task-local value does not keep the scope alive: a task started inside ``run(_:)``
    /// (one of Compose's own, a value on its way to the main actor, say) does not delay the end
    /// that releasing the scope's last reference makes. Once the scope is gone, this is `nil`,
    /// and a subscription made in such a task registers nothing, as in an ended scope.
    public static var current: ObservationScope? {
        currentEntry?.scope
    }

    /// The scope of ``current``, held weakly, and its core, held strongly (so that a subscription
    /// made after the scope is gone finds it ended).
    @TaskLocal
    static var currentEntry: CurrentEntry?

    final class CurrentEntry: Sendable {
        weak let scope: ObservationScope?
        let core: ScopeCore

        init(_ scope: ObservationScope) {
            self.scope = scope
            self.core = scope.core
        }
    }

    /// What the scope owns and how it ends. A parent keeps its children's cores, not the
    /// children: a child released first ends (its deinit ends its core), and a parent's end
    /// reaches a child's core whatever the child object's state, its deinit included.
    let core: ScopeCore

    /// A name for debugging, such as the component type.
    public let label: String?

    /// What handlers subscribed in this scope run inside; inherited from the parent.
    @usableFromInline package var handlerContext: HandlerContext? {
        core.handlerContext
    }

    /// The handler context of the current scope (see ``current``), if any.
    @usableFromInline package static var currentHandlerContext: HandlerContext? {
        currentEntry?.core.handlerContext
    }

    /// Creates a scope.
    ///
    /// - Parameters:
    ///   - label: A name for debugging.
    ///   - parent: A scope whose end also ends this one. If it has already ended, so has this one.
    public init(label: String? = nil, parent: ObservationScope? = nil) {
        self.label = label
        self.core = ScopeCore(parent: parent?.core, handlerContext: parent?.handlerContext)
    }

    /// Creates a scope whose handlers run inside `handlerContext`, and so do its children's.
    package init(label: String?, handlerContext: HandlerContext?) {
        self.label = label
        self.core = ScopeCore(parent: nil, handlerContext: handlerContext)
    }

    deinit {
        end()
    }

    /// Creates a scope that ends when this one ends (or when it is released first: this scope does
    /// not keep it).
    public func makeChild(label: String? = nil) -> ObservationScope {
        ObservationScope(label: label, parent: self)
    }

    /// Runs `body` with this scope as ``current``.
    ///
    /// - Returns: What `body` returns.
    @discardableResult
    public func run<Result>(_ body: () throws -> Result) rethrows -> Result {
        try Self.$currentEntry.withValue(CurrentEntry(self), operation: body)
    }

    /// Runs the asynchronous `body` with this scope as ``current``.
    ///
    /// - Returns: What `body` returns.
    @discardableResult
    public func run<Result>(
        isolation: isolated (any Actor)? = #isolation,
        _ body: () async throws -> Result
    ) async rethrows -> Result {
        try await Self.$currentEntry.withValue(CurrentEntry(self), operation: body, isolation: isolation)
    }

    /// Runs `body` with no current scope, so that a task it starts does not inherit ``current`` (a
    /// task keeps the task-local values it starts with): for the tasks an emitter keeps running for
    /// its subscribers (a timer's, a sequence's, an alarm's). Such a task belongs to the emitter,
    /// not to the scope its first subscriber was made in: it would otherwise keep that scope's core
    /// for as long as it runs, and what it subscribes would join that scope.
    package static func outsideAnyScope<Result>(_ body: () -> Result) -> Result {
        $currentEntry.withValue(nil, operation: body)
    }

    /// Makes `subscription` part of this scope; cancels it at once if the scope has ended.
    ///
    /// For a subscription made elsewhere: its handler may have been called before it joined.
    /// `+=` and the other ways of subscribing join the current scope as they register, and
    /// register nothing once it has ended.
    ///
    /// - Complexity: Amortized O(1).
    public func adopt(_ subscription: EmitterSubscription) {
        core.adopt(subscription)
    }

    /// Registers `subscriber` with `register` and makes the subscription part of ``current``, if
    /// there is a current scope: what every way of subscribing calls.
    ///
    /// If the scope has ended, `register` is not called and the result is a cancelled
    /// subscription that registered nothing. Otherwise `register` gets `subscriber` behind a
    /// ``RegistrationGate`` the scope's `end()` closes, should it end before the subscription has
    /// joined.
    @usableFromInline
    package static func joiningCurrent<Value>(
        _ subscriber: IsolatedSubscriber<Value>,
        _ register: (IsolatedSubscriber<Value>) -> EmitterSubscription
    ) -> EmitterSubscription {
        guard let entry = currentEntry else {
            // Outside any scope (a handler subscribing as it hears a value handed over during
            // another registration): not part of that registration's gate.
            guard RegistrationGate.registering != nil else { return register(subscriber) }
            return RegistrationGate.$registering.withValue(nil) { register(subscriber) }
        }
        return entry.core.join(subscriber, register)
    }

    /// ``joiningCurrent(_:_:)`` for this scope.
    package func join<Value>(
        _ subscriber: IsolatedSubscriber<Value>,
        _ register: (IsolatedSubscriber<Value>) -> EmitterSubscription
    ) -> EmitterSubscription {
        core.join(subscriber, register)
    }

    /// Cancels every subscription of this scope and ends its child scopes. Idempotent.
    ///
    /// Once any `end()` has returned, what ``EmitterSubscription/cancel()`` promises holds for
    /// every subscription of the scope and its descendants: no handler written on an actor is
    /// called again, even with a value sent before, and no send that starts afterwards reaches a
    /// nonisolated handler. This covers subscriptions being registered on other threads meanwhile,
    /// whose registrations have not returned yet: `end()` stops their handlers without waiting
    /// for the registrations, and each is cancelled as its registration returns. Subscriptions
    /// made later are never registered.
    ///
    /// Every call does the whole work, so a call made while another thread's is still under way
    /// returns no sooner than the first would, except for a subscription made with
    /// ``EmitterSubscription/init(onCancel:)`` (a custom emitter's), whose later cancel returns
    /// at once while its `onCancel` runs on another thread. Like `cancel()`, an `end()` made on another thread
    /// while a handler of the scope runs on its actor waits for that call to return, so such a
    /// handler must not wait for a thread that ends its scope; a handler may end its own scope
    /// (its call in progress is its last). The scope keeps a cancelled subscription until it is
    /// released or until nothing is left to wait for (no call of its handler in progress on an
    /// actor).
    ///
    /// - Complexity: O(*n*) in the number of subscriptions and descendants.
    public func end() {
        core.end()
    }

    /// Whether ``end()`` has been called.
    public var isEnded: Bool {
        core.isEnded
    }

    /// The subscriptions of this scope and its descendants that are still active.
    ///
    /// A leak check: after a scope ends, this is zero once the registrations under way at its end
    /// have returned (each cancels its subscription as it returns).
    public var activeSubscriptionCount: Int {
        core.activeSubscriptionCount
    }

    /// How many subscriptions are being registered in this scope: what a test reads to know that
    /// an end overlaps a registration.
    var registeringCount: Int {
        core.registeringCount
    }

    /// The subscriptions held, cancelled ones included, until the next sweep.
    var retainedSubscriptionCount: Int {
        core.retainedSubscriptionCount
    }

    /// The number of child scopes that have not ended, or ended while a handler of theirs was
    /// still running on its actor (see the rules above).
    public var childCount: Int {
        core.childCount
    }

    public var description: String {
        "ObservationScope(\(label ?? "unnamed"))"
    }
}
