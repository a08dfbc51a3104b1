extension Rule {
    /// Satisfied when `rule` is not.
    ///
    /// ```swift
    /// Field(username, rules: .not(.equal(to: "admin")))
    /// ```
    public static func not(_ rule: Rule) -> Rule {
        Rule(label: { ("not(\(rule.name))", "must not satisfy \(rule.name)") }) { !rule.test($0) }
    }

    /// Satisfied when this rule and `other` both are.
    public func and(_ other: Rule) -> Rule {
        Rule(label: { [self] in ("\(name) and \(other.name)", "\(requirement) and \(other.requirement)") }) {
            [test] in
            test($0) && other.test($0)
        }
    }

    /// Satisfied when this rule or `other` is.
    ///
    /// ```swift
    /// Field(contact, rules: Rule.email.or(.pattern("\\+?[0-9 ]{6,20}")))
    /// ```
    public func or(_ other: Rule) -> Rule {
        Rule(label: { [self] in ("\(name) or \(other.name)", "\(requirement) or \(other.requirement)") }) {
            [test] in
            test($0) || other.test($0)
        }
    }

    /// `!rule`: ``not(_:)``.
    public static prefix func ! (rule: Rule) -> Rule {
        .not(rule)
    }

    /// `a && b`: ``and(_:)``.
    public static func && (lhs: Rule, rhs: Rule) -> Rule {
        lhs.and(rhs)
    }

    /// `a || b`: ``or(_:)``.
    public static func || (lhs: Rule, rhs: Rule) -> Rule {
        lhs.or(rhs)
    }
}
