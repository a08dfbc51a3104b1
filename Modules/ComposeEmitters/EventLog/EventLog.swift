import ComposeMachinery
import Synchronization  // Atomic (the switch)

/// An opt-in log of every discrete event: sends, and (from other Compose modules) store
/// mutations, route changes and component lifecycle.
///
/// Logging is off until something observes the log. While it is off, an emitter pays one
/// relaxed atomic load per send. While it is on, each event is numbered (``Event/sequence``)
/// and handed to the observers in the order of its number, whatever thread recorded it, with
/// the delivery rules of any emitter: on the thread where it happened, unless the log is handing
/// over another event at that moment, in which case the thread doing so hands this one over
/// right after. An event is recorded before it takes effect (a send is logged before its
/// handlers run); when another thread is handing events over, it may reach the observers after.
///
/// ```swift
/// let tracing = EventLog.observe { event in
///     print(event)  // "#12 send LogIn.login: ()"
/// }
/// // ...
/// tracing.cancel()  // logging is off again once no observer is left
/// ```
///
/// An observer must not send on an emitter for every event it receives: that event would be
/// logged too, and the log would never go quiet.
///
/// Each world has its own log: in ComposeTesting's sandbox, a test observes the events of its own
/// code only, and a test outside any sandbox the events of the process world. Sequence numbers
/// count per world.
public enum EventLog {
    /// Whether anything observes the log. Emitters keep a reference to it.
    @usableFromInline
    static let logSwitch = Switch()

    /// Counts the log's observers; logging is enabled while the count is positive.
    @usableFromInline
    final class Switch: Sendable {
        @usableFromInline let count = Atomic<Int>(0)

        init() {}

        /// - Complexity: One relaxed atomic load.
        @inlinable
        var isOn: Bool {
            count.load(ordering: .relaxed) > 0
        }
    }

    /// The log of one world (see `ComposeWorld`): a sandboxed test observes only its own events.
    final class Channel: Sendable {
        /// The last sequence number given. Numbering and queueing an event happen under this one
        /// lock, so events reach the observers in the order of their numbers.
        let sequence = LockedState<UInt64>(0)
        let observers = EmitterCore<Event>(label: "EventLog", remembersValues: false, isLogged: false)
    }

    /// The current world's log.
    private static var channel: Channel {
        ComposeWorld.current.value(for: ObjectIdentifier(Channel.self)) { Channel() }
    }

    /// Whether anything observes the log.
    ///
    /// - Complexity: One relaxed atomic load.
    public static var isEnabled: Bool {
        logSwitch.isOn
    }

    /// Observes every event recorded from now on, and enables logging while the subscription
    /// is active.
    ///
    /// - Parameter handler: Called with each event, in the order events were recorded, never
    ///   concurrently with itself.
    /// - Returns: The subscription; cancelling the last one disables logging.
    @discardableResult
    public static func observe(_ handler: @escaping @Sendable (Event) -> Void) -> EmitterSubscription {
        observe(kinds: nil, handler)
    }

    /// Observes the events of `kinds` only, and enables logging while the subscription is active.
    ///
    /// Kinds that no observer wants are not recorded: while the only observers name the kinds they
    /// want, a store does not describe its mutations (by reflection, the log's most costly event)
    /// unless one of them wants mutations.
    ///
    /// - Parameters:
    ///   - kinds: The kinds to hear.
    ///   - handler: Called with each event of those kinds, in order, never concurrently with itself.
    /// - Returns: The subscription; cancelling the last one disables logging.
    @discardableResult
    public static func observe(only kinds: Set<Event.Kind>, _ handler: @escaping @Sendable (Event) -> Void) -> EmitterSubscription
    {
        observe(kinds: kinds) { event in
            if kinds.contains(event.kind) { handler(event) }
        }
    }

    private static func observe(kinds: Set<Event.Kind>?, _ handler: @escaping @Sendable (Event) -> Void) -> EmitterSubscription {
        let registration = channel.observers.register(handler)
        interest.add(kinds)
        logSwitch.count.add(1, ordering: .relaxed)
        return EmitterSubscription(cancelling: registration) {
            logSwitch.count.subtract(1, ordering: .relaxed)
            interest.remove(kinds)
        }
    }

    /// Records an event, if logging is enabled.
    ///
    /// Compose's modules call this; your own types may too.
    ///
    /// - Parameters:
    ///   - kind: What happened.
    ///   - source: Who it happened to, such as an emitter's label. Evaluated only when enabled.
    ///   - payload: The value involved. Evaluated only when enabled.
    public static func record(
        _ kind: Event.Kind,
        source: @autoclosure () -> String,
        payload: @autoclosure () -> any Sendable
    ) {
        record(kind, source: source(), payload: payload(), subject: nil)
    }

    /// Records an event about `subject` (an emitter's core, a router, a slot), if logging is
    /// enabled: what Compose's own observers (a session recorder) match against a tree.
    package static func record(
        _ kind: Event.Kind,
        source: @autoclosure () -> String,
        payload: @autoclosure () -> any Sendable,
        subject: ObjectIdentifier?
    ) {
        guard isEnabled, interest.wants(kind) else { return }
        // The autoclosures may be user code (a description): evaluated before the lock.
        let source = source()
        let payload = payload()
        let isConsequence = isDelivering
        let channel = self.channel
        channel.sequence.withLock { sequence in
            sequence += 1
            channel.observers.enqueue(
                Event(
                    kind: kind, source: source, payload: payload, time: .now, sequence: sequence, subject: subject,
                    isConsequence: isConsequence))
        }
        channel.observers.deliverBacklog()
    }

    // MARK: Consequences

    /// Whether the code running now is a consequence of a logged event: it runs while a logged
    /// send is being delivered (in a handler, or in a task a handler started), or on a timer.
    @TaskLocal
    private static var isDelivering = false

    /// Whether what runs now is a consequence (see ``asConsequence(_:)``): for work queued now
    /// and run later on a task of its own, which carries no task-local value.
    package static var isConsequence: Bool {
        isDelivering
    }

    /// Runs `body` as a consequence of an event: what it records is marked
    /// ``Event/isConsequence``. While logging is off, runs `body` and nothing more.
    ///
    /// - Complexity: O(1) while logging is off; a task-local value pushed while it is on.
    @inlinable
    package static func asConsequence<Value, Failure: Error>(_ body: () throws(Failure) -> Value) throws(Failure) -> Value {
        guard isEnabled else { return try body() }
        return try withConsequence(body)
    }

    /// Runs `body` as a consequence of an event whether or not logging is on: for what starts
    /// tasks that may outlive the moment logging was off (a host mounting a tree, sending its
    /// lifecycle events), so that what those tasks send later is still a consequence.
    ///
    /// - Complexity: A task-local value pushed.
    package static func alwaysAsConsequence<Value, Failure: Error>(_ body: () throws(Failure) -> Value) throws(Failure) -> Value {
        try withConsequence(body)
    }

    @usableFromInline
    static func withConsequence<Value, Failure: Error>(_ body: () throws(Failure) -> Value) throws(Failure) -> Value {
        let outcome = $isDelivering.withValue(true) { Result { () throws(Failure) -> Value in try body() } }
        return try outcome.get()
    }
}
