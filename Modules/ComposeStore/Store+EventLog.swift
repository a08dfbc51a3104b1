import ComposeEmitters

extension EventLog.Event.Kind {
    /// A store's state changed. The payload is a ``StateMutation``.
    public static let mutation = EventLog.Event.Kind(rawValue: "mutation")
    /// A store is about to be written through a ``StoreBinding`` (what a text field edits); the
    /// payload describes the key path and the new value. Recorded before the write.
    public static let binding = EventLog.Event.Kind(rawValue: "binding")
}

/// A write through a binding, as the log records it before it happens: the key path, and the
/// whole state it leads to.
package struct BindingWrite: Sendable, CustomStringConvertible {
    /// The key path written: `\State.email`.
    package let keyPath: String
    /// The whole state after the write (if no other write lands between).
    package let state: any Sendable

    /// The key path and the state it leads to, described as a mutation's values are (a private
    /// field shows as its type describes it, `<redacted>` for a `Redacted` one): never the
    /// written value by itself, which may be a private field's.
    package var description: String {
        "\(keyPath) -> \(LoggedValue.describe(state))"
    }
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
    func logMutation(old: State, new: State, keyPath: AnyKeyPath?) {
        let changes = zip(Mirror(reflecting: old).children, Mirror(reflecting: new).children).compactMap {
            old, new -> StateMutation.Change? in
            let before = LoggedValue.describe(old.value)
            let after = LoggedValue.describe(new.value)
            guard before != after else { return nil }
            return StateMutation.Change(property: old.label ?? "_", old: before, new: after)
        }
        EventLog.record(.mutation, source: label, payload: StateMutation(keyPath: keyPath.map(Self.describe), changes: changes))
    }
}

extension StoreStorage {
    /// Records a write through a binding in the event log, before it happens.
    @usableFromInline
    func logBindingWrite<Value>(_ keyPath: WritableKeyPath<State, Value>, _ value: Value) {
        var state = readForWriting(\State.self)
        state[keyPath: keyPath] = value
        EventLog.record(
            .binding, source: label,
            payload: BindingWrite(keyPath: Self.describe(keyPath), state: state),
            subject: ObjectIdentifier(self))
    }
}

extension StoreStorage {
    /// `\State.email`; a computed property (a property wrapper's, `@Redacted var password`) as
    /// `\State.<computed String>`, without the address the runtime prints for it, which differs
    /// from run to run.
    static func describe(_ keyPath: AnyKeyPath) -> String {
        var text = Substring("\(keyPath)")
        var described = ""
        while let start = text.firstRange(of: "<computed 0x") {
            described += text[..<start.lowerBound] + "<computed "
            text = text[start.upperBound...].drop { $0.isHexDigit }.dropFirst(2)  // " ("
            guard let end = text.firstRange(of: ")>") else { break }
            described += text[..<end.lowerBound] + ">"
            text = text[end.upperBound...]
        }
        return described + text
    }
}
