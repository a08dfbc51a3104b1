/// A value checked against rules, inside a ``ValidationBuilder``.
///
/// ```swift
/// Field(email, rules: .nonEmpty, .email)
/// Field(email, name: "email", rules: [
///     .nonEmpty: "Email address must be non-empty",
///     .email: "Invalid email address format",
/// ])
/// ```
///
/// Rules are checked in order and the first one that fails is reported; the field's later rules
/// are skipped, so an empty address is "must not be empty", not also "must be an email address".
/// Messages given as a dictionary literal keep their written order.
public struct Field: Sendable {
    /// The field's errors: none, or the first rule that failed.
    public let errors: [ValidationError]

    /// Checks `value` against `rules`.
    ///
    /// - Parameters:
    ///   - value: The value to check.
    ///   - name: The field's name, so its error can be found with ``Validation/errors(for:)``.
    ///   - rules: The rules, checked in order.
    // Disfavored: with an optional value and only `.required` (which exists for every rule type),
    // the optional overload, which understands `.required`, must win. A non-optional value that
    // reaches it is simply present.
    @_disfavoredOverload
    @inlinable
    public init<Value>(_ value: Value, name: String? = nil, rules: Rule<Value>...) {
        errors = Self.check(value, name: name, rules.lazy.map { ($0, nil) })
    }

    /// Checks `value` against `rules`, each with the message to show when it fails.
    @_disfavoredOverload
    @inlinable
    public init<Value>(_ value: Value, name: String? = nil, rules: KeyValuePairs<Rule<Value>, String>) {
        errors = Self.check(value, name: name, rules.lazy.map { ($0.key, $0.value) })
    }

    /// Checks an optional `value`: `nil` fails only ``Rule/required``, and is valid without it;
    /// a value is checked against the other rules.
    @inlinable
    public init<Value>(_ value: Value?, name: String? = nil, rules: Rule<Value>...) {
        errors = Self.checkOptional(value, name: name, rules.lazy.map { ($0, nil) })
    }

    /// Checks an optional `value`, each rule with its message.
    @inlinable
    public init<Value>(_ value: Value?, name: String? = nil, rules: KeyValuePairs<Rule<Value>, String>) {
        errors = Self.checkOptional(value, name: name, rules.lazy.map { ($0.key, $0.value) })
    }

    @inlinable
    static func check<Value>(
        _ value: Value,
        name: String?,
        element: Int? = nil,
        _ rules: some Sequence<(Rule<Value>, String?)>
    ) -> [ValidationError] {
        for (rule, message) in rules where !rule.isSatisfied(by: value) {
            return [error(rule, message, name: name, element: element)]
        }
        return []
    }

    @inlinable
    static func checkOptional<Value>(
        _ value: Value?,
        name: String?,
        _ rules: some Sequence<(Rule<Value>, String?)>
    ) -> [ValidationError] {
        guard let value else {
            let required = rules.first { $0.0.isRequired }
            return required.map { [error($0.0, $0.1, name: name, element: nil)] } ?? []
        }
        return check(value, name: name, rules)
    }

    @usableFromInline
    static func error<Value>(_ rule: Rule<Value>, _ message: String?, name: String?, element: Int?) -> ValidationError {
        let subject = (name ?? "value") + (element.map { "[\($0)]" } ?? "")
        return ValidationError(
            field: name,
            element: element,
            rule: rule.name,
            message: message ?? "\(subject) \(rule.requirement)"
        )
    }
}
