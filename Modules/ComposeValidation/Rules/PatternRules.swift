extension Rule where Value: StringProtocol {
    /// The whole value matches `pattern`, in time linear in the value's length.
    ///
    /// ```swift
    /// Field(code, rules: .pattern("[A-Z]{2}[0-9]{4}"))
    /// ```
    ///
    /// See ``Pattern`` for the syntax. A pattern that does not compile is a programming error:
    /// it stops a debug build with the reason; in a release build every value fails the rule,
    /// whose ``Rule/requirement`` then says why.
    ///
    /// Compiled patterns are cached by source, so a pattern written inside a computed validation
    /// is compiled once.
    public static func pattern(_ source: String) -> Rule {
        switch PatternCache.pattern(source) {
        case .success(let pattern):
            return matching(pattern)
        case .failure(let error):
            assertionFailure("Rule.pattern(\"\(source)\"): \(error)")
            return Rule("pattern(\(source))", requirement: "cannot be checked: \(error)") { _ in false }
        }
    }

    /// The whole value matches a compiled `pattern`, in time linear in the value's length.
    public static func matching(_ pattern: Pattern) -> Rule {
        Rule(label: { ("pattern(\(pattern.source))", "must match \(pattern.source)") }) { pattern.matches($0) }
    }
}

extension Rule where Value == String {
    /// The whole value matches a Swift `Regex`, for what ``Pattern`` does not support
    /// (lookarounds, backreferences, Unicode properties).
    ///
    /// Swift's `Regex` backtracks: a nested quantifier such as `(a+)+$` takes seconds on twenty
    /// characters (measured: 6 s for 18 on this project's CI machine). A value longer than
    /// `maxLength` characters fails without being matched, which keeps a pasted megabyte cheap,
    /// but only a pattern without nested quantifiers is safe within that length. Use it with
    /// patterns you wrote and trust; prefer ``pattern(_:)``, which is linear.
    ///
    /// - Parameters:
    ///   - regex: The pattern; the whole value must match.
    ///   - maxLength: The longest value, in characters, the regex is run on.
    public static func matching<Output>(_ regex: Regex<Output>, maxLength: Int = 1_000) -> Rule {
        nonisolated(unsafe) let regex = regex  // A Regex is an immutable value.
        return Rule("regex", requirement: "must match the expected format") { value in
            count(value, isWithin: 0...maxLength) && (try? regex.wholeMatch(in: value)) != nil
        }
    }
}
