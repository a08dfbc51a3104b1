/// One failed rule: which field, which element of an array, which rule, and the message to show.
public struct ValidationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The field's name, if it was given one (`Field(email, name: "email", ...)`); nested
    /// validations prefix it: `"address.street"`.
    public let field: String?
    /// For an ``ArrayField``, the index of the element that failed; `nil` for a field, or for the
    /// array itself (an empty array that must not be).
    public let element: Int?
    /// The name of the rule that failed, such as `"email"` or `"length(6...1000)"`.
    public let rule: String
    /// The message: the one given with the rule, or the rule's requirement
    /// ("email must be an email address").
    public let message: String

    /// An error of `field` (and of its `element`, in an array field) from `rule`, saying `message`.
    public init(field: String?, element: Int?, rule: String, message: String) {
        self.field = field
        self.element = element
        self.rule = rule
        self.message = message
    }

    public var description: String {
        message
    }

    /// The same error under a group's name: `"address"` + `"street"` is `"address.street"`.
    func prefixed(by group: String) -> ValidationError {
        ValidationError(field: field.map { "\(group).\($0)" } ?? group, element: element, rule: rule, message: message)
    }
}
