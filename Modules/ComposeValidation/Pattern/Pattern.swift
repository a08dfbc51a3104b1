/// A pattern that values must match, matched in time linear in the value's length.
///
/// ```swift
/// let code = try Pattern("[A-Z]{2}[0-9]{4}")
/// code.matches("AB1234")  // true
/// ```
///
/// Swift's `Regex` backtracks: a pattern such as `(a+)+$` takes seconds on twenty characters,
/// and an input crafted for it can stall a form. A `Pattern` is compiled to a Thompson NFA and
/// run without backtracking, so matching costs O(*n* × *m*) for *n* characters and a pattern of
/// size *m*, whatever the input.
///
/// ## Syntax
/// The common subset of Swift Regex syntax:
/// - literals, `.` (any character but a newline), escapes `\.` `\\` `\n` `\t` `\r` (`\r\n` is one
///   character, CR LF, as in the value);
/// - classes `[abc]` `[a-z0-9_]` `[^...]` and `\d` `\w` `\s` `\D` `\W` `\S` (decimal digit; letter,
///   number or `_`; whitespace);
/// - groups `( )` and `(?: )`, alternation `|`;
/// - quantifiers `*` `+` `?` `{n}` `{n,}` `{n,m}` `{,m}` (counts up to 1,000), lazy forms `*?` accepted;
/// - anchors `^` `$`.
///
/// Lookarounds, backreferences, possessive quantifiers, `\b`, Unicode properties, nested classes
/// (`[a[bc]]`), POSIX classes (`[[:digit:]]`) and class set operations (`&&`, `--`, `~~`) are
/// refused with a ``PatternError`` rather than read differently from `Regex`; use
/// ``Rule/matching(_:maxLength:)`` with a Swift `Regex` for those, on trusted patterns.
///
/// Matching is against the whole value, by `Character`, like `Regex.wholeMatch(in:)`.
///
/// ## Limits and cost
/// - Groups and quantifiers nest at most 32 deep, and a pattern compiles to at most 10,000
///   instructions (*m*); beyond either, the pattern is refused with a ``PatternError`` before it
///   is built. A pattern within the limits compiles on a thread with a 256 KB stack.
/// - Matching *n* characters visits at most 2 × (*n* + 1) × *m* instructions. Each visit costs
///   O(1), except a character class on a non-ASCII character: O(log *r*) for a class of *r*
///   ranges (a class of 20,000 members costs no more per character than one of 20). The
///   Compose module's "Performance" article gives the time per visit on the benchmark machine;
///   at the size limit, a 10,000-character value is at most 2 × 10⁸ visits.
public struct Pattern: Sendable, CustomStringConvertible {
    /// The pattern as written.
    public let source: String
    let program: PatternProgram

    /// Compiles `source`.
    ///
    /// - Throws: ``PatternError`` naming what is wrong and where.
    public init(_ source: String) throws(PatternError) {
        self.source = source
        program = try PatternProgram(PatternParser.parse(source))
    }

    /// Whether the whole of `value` matches.
    ///
    /// - Complexity: O(*n* × *m*), with *n* the characters of `value` and *m* the size of the
    ///   compiled pattern.
    public func matches(_ value: some StringProtocol) -> Bool {
        var steps = 0
        return program.wholeMatch(value, steps: &steps)
    }

    /// How many instruction visits matching `value` takes: the bound tests check.
    package func steps(toMatch value: some StringProtocol) -> Int {
        var steps = 0
        _ = program.wholeMatch(value, steps: &steps)
        return steps
    }

    /// Whether the whole of `value` matches, matched by `Character` even where the byte path
    /// applies: for checks that the two paths agree.
    package func matchesByCharacter(_ value: String) -> Bool {
        program.wholeMatchByCharacter(value)
    }

    /// The number of instructions of the compiled pattern (*m*).
    package var size: Int {
        program.instructions.count
    }

    public var description: String {
        source
    }
}
