extension Rule {
    /// A rule that `test` decides: for a one-off condition without extending `Rule`.
    ///
    /// ```swift
    /// Field(username, rules: .predicate("available", requirement: "is taken") { !taken.contains($0) })
    /// ```
    public static func predicate(
        _ name: String,
        requirement: String = "is invalid",
        _ test: @escaping @Sendable (Value) -> Bool
    ) -> Rule {
        Rule(name, requirement: requirement, test)
    }
}
