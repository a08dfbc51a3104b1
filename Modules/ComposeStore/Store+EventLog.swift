import ComposeEmitters

extension EventLog.Event.Kind {
    /// A store's state changed. The payload is a ``StateMutation``.
    public static let mutation = EventLog.Event.Kind(rawValue: "mutation")
}

/// What one store mutation changed, as the ``/ComposeEmitters/EventLog`` records it.
public struct StateMutation: Sendable, CustomStringConvertible {
    /// One property of the state that changed.
    public struct Change: Sendable, CustomStringConvertible {
        /// The property's name.
        public let property: String
        /// The value before, as `String(reflecting:)` prints it (a date no calendar holds prints from
        /// its mirror, where its own description would stop the program).
        public let old: String
        /// The value after.
        public let new: String

        public var description: String {
            "\(property): \(old) -> \(new)"
        }
    }

    /// The key path written, for a keyed write.
    public let keyPath: String?
    /// The top-level properties whose values differ, in declaration order.
    public let changes: [Change]

    public var description: String {
        (keyPath.map { "\($0) " } ?? "") + changes.map(\.description).joined(separator: ", ")
    }
}

extension StoreStorage {
    /// Records a mutation in the event log. Reflection makes this slow, which is why the store
    /// keeps the old and new states only while the log is on.
    @usableFromInline
    func logMutation(old: State, new: State, keyPath: String?) {
        let changes = zip(Mirror(reflecting: old).children, Mirror(reflecting: new).children).compactMap {
            old, new -> StateMutation.Change? in
            let before = LoggedValue.describe(old.value)
            let after = LoggedValue.describe(new.value)
            guard before != after else { return nil }
            return StateMutation.Change(property: old.label ?? "_", old: before, new: after)
        }
        EventLog.record(.mutation, source: label, payload: StateMutation(keyPath: keyPath, changes: changes))
    }
}
