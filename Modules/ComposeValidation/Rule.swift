/// A condition a value must meet: `.nonEmpty`, `.email`, `.length(6...1000)`.
///
/// ```swift
/// Field(email, rules: .nonEmpty, .email)
/// Field(password, rules: .length(6...1000))
/// ```
///
/// Define a rule of your own by extending `Rule`:
///
/// ```swift
/// extension Rule where Value == String {
///     static var zipCode: Rule {
///         Rule("zipCode", requirement: "must be a 5-digit ZIP code") { value in
///             value.count == 5 && value.allSatisfy(\.isASCIIDigit)
///         }
///     }
/// }
/// ```
///
/// Every rule Compose ships runs in time linear in its input (``Rule/matching(_:maxLength:)``, which
/// runs Swift's backtracking `Regex`, excepted and documented), so a value typed or pasted by a
/// user cannot stall validation.
public struct Rule<Value: SendableMetatype>: Sendable, CustomStringConvertible {
    /// The rule's name and requirement, formatted only when asked for: a validation runs on every
    /// keystroke, and most rules pass.
    @usableFromInline
    enum Label: Sendable {
        case fixed(name: String, requirement: String)
        case formatted(@Sendable () -> (name: String, requirement: String))
    }

    @usableFromInline let label: Label
    @usableFromInline let test: @Sendable (Value) -> Bool
    /// Set by ``required``, which an optional ``Field`` treats specially.
    @usableFromInline let isRequired: Bool

    /// A rule named `name` that `test` decides.
    ///
    /// - Parameters:
    ///   - name: The rule's name, reported with its errors.
    ///   - requirement: What a valid value must be, for the default error message.
    ///   - test: Returns whether a value satisfies the rule. Keep it linear in the value's size.
    @inlinable
    public init(_ name: String, requirement: String, _ test: @escaping @Sendable (Value) -> Bool) {
        self.label = .fixed(name: name, requirement: requirement)
        self.test = test
        self.isRequired = false
    }

    /// A rule whose name and requirement are formatted from its parameters when an error needs
    /// them.
    @inlinable
    init(label: @escaping @Sendable () -> (name: String, requirement: String), test: @escaping @Sendable (Value) -> Bool) {
        self.label = .formatted(label)
        self.test = test
        self.isRequired = false
    }

    @usableFromInline
    init(name: String, requirement: String, isRequired: Bool, test: @escaping @Sendable (Value) -> Bool) {
        self.label = .fixed(name: name, requirement: requirement)
        self.test = test
        self.isRequired = isRequired
    }

    /// The rule's name, reported in ``ValidationError/rule``: `"email"`, `"length(6...1000)"`.
    public var name: String {
        switch label {
        case .fixed(let name, _): name
        case .formatted(let format): format().name
        }
    }

    /// What a valid value must be, completing "value ...": `"must be an email address"`.
    public var requirement: String {
        switch label {
        case .fixed(_, let requirement): requirement
        case .formatted(let format): format().requirement
        }
    }

    /// Whether `value` satisfies the rule.
    @inlinable
    public func isSatisfied(by value: Value) -> Bool {
        test(value)
    }

    public var description: String {
        name
    }
}
