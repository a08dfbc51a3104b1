extension Rule where Value: Equatable {
    /// The value equals `other`, such as a repeated password.
    ///
    /// ```swift
    /// Field(repeatedPassword, rules: [.equal(to: password): "Passwords do not match"])
    /// ```
    @inlinable
    public static func equal(to other: Value) -> Rule where Value: Sendable {
        Rule("equal", requirement: "must match") { $0 == other }
    }
}
