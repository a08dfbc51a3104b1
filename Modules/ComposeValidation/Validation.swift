/// The result of validating a state: whether it is valid, and every error, in declaration order.
///
/// Declare a validation as a computed property of the state, built with ``ValidationBuilder``:
///
/// ```swift
/// struct State: AnyState {
///     var email = ""
///     var password = ""
///
///     @ValidationBuilder
///     var credentials: Validation {
///         Field(email, name: "email", rules: .nonEmpty, .email)
///         Field(password, name: "password", rules: [
///             .length(6...1000): "Password must be at least 6 characters long"
///         ])
///     }
/// }
///
/// state.credentials.isValid
/// state.credentials.errors(for: "password")  // shown next to the password field
/// ```
///
/// Errors come in the order the fields are declared, never in dictionary order, so the same state
/// always gives the same list.
public struct Validation: Sendable, Equatable, CustomStringConvertible {
    /// Every failed rule, in declaration order.
    public let errors: [ValidationError]

    /// A validation that failed with `errors` (none: valid).
    public init(errors: [ValidationError] = []) {
        self.errors = errors
    }

    /// A group of fields whose errors carry `name` as a prefix: `"address.street"`.
    ///
    /// ```swift
    /// Validation("address") {
    ///     Field(street, name: "street", rules: .nonBlank)
    /// }
    /// ```
    public init(_ name: String, @ValidationBuilder _ content: () -> Validation) {
        errors = content().errors.map { $0.prefixed(by: name) }
    }

    /// Whether every rule passed.
    public var isValid: Bool {
        errors.isEmpty
    }

    /// The messages of every error, in declaration order: the original Compose's `errors`.
    public var messages: [String] {
        errors.map(\.message)
    }

    /// The errors of the field named `field`, in rule order (for an ``ArrayField``, every
    /// element's, in element order).
    public func errors(for field: String) -> [ValidationError] {
        errors.filter { $0.field == field }
    }

    /// The first message for the field named `field`, to show next to it; `nil` if it is valid.
    public func message(for field: String) -> String? {
        errors.first { $0.field == field }?.message
    }

    /// Whether the field named `field` passed every rule.
    public func isValid(_ field: String) -> Bool {
        !errors.contains { $0.field == field }
    }

    public var description: String {
        isValid ? "valid" : "invalid: " + messages.joined(separator: "; ")
    }
}
