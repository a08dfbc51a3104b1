extension Rule where Value: Collection {
    /// The value has at least one element: for a string, at least one character.
    ///
    /// A string of spaces is not empty; use ``nonBlank`` to treat it as empty.
    ///
    /// - Complexity: O(1).
    @inlinable
    public static var nonEmpty: Rule {
        Rule("nonEmpty", requirement: "must not be empty") { !$0.isEmpty }
    }
}

extension Rule where Value: StringProtocol {
    /// The value has a character that is not whitespace (`Character.isWhitespace`: spaces, tabs,
    /// newlines, and Unicode's other white space), so `"   "` is empty.
    ///
    /// - Complexity: O(*n*), stopping at the first character that is not whitespace.
    @inlinable
    public static var nonBlank: Rule {
        Rule("nonBlank", requirement: "must not be blank") { value in
            value.contains { !$0.isWhitespace }
        }
    }
}
