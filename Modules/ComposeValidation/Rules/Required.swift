extension Rule {
    /// The value is present: for an optional ``Field``, `nil` fails.
    ///
    /// ```swift
    /// Field(nickname, rules: .required, .length(3...20))  // nickname: String?
    /// ```
    ///
    /// For an optional field, `nil` fails `.required` and is not checked against the other rules;
    /// without `.required`, `nil` is valid. A non-optional value always satisfies it.
    public static var required: Rule {
        Rule(name: "required", requirement: "is required", isRequired: true) { _ in true }
    }
}
