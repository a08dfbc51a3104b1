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
/// - literals, `.` (any character but a newline: LF, VT, FF, CR, CR LF, NEL, U+2028, U+2029),
///   escapes `\.` `\\` `\n` `\t` `\r` (`\r\n` is one character, CR LF, as in the value);
/// - classes `[abc]` `[a-z0-9_]` `[^...]` and `\d` `\w` `\s` `\D` `\W` `\S`;
/// - groups `( )` and `(?: )`, alternation `|`;
/// - quantifiers `*` `+` `?` `{n}` `{n,}` `{n,m}` `{,m}` (counts up to 1,000; spaces inside the
///   braces, `{ 2 , 3 }`, as Regex allows), lazy forms `*?` accepted;
/// - anchors `^` `$`.
///
/// ## The same reading as Swift Regex
/// A `Pattern` never reads a pattern differently from Swift's `Regex`: a pattern either throws a
/// ``PatternError`` naming the construct, or matches exactly the values that
/// `Regex(source).wholeMatch(in:)` matches. Regex's reading, which a `Pattern` follows:
/// - `\d` is a number, as `Character.isNumber` says: "²", "½", "Ⅻ" and "五" too, not only
///   decimal digits (write `[0-9]` for those); `\w` is a letter, a number or `_`; `\s` is
///   whitespace, CR LF included.
/// - An ASCII literal or class member matches that one character only: `K` and `[K]` do not
///   match the Kelvin sign (U+212A), though it is canonically equivalent to "K". Any other
///   literal or member matches what is canonically equivalent to it: `é` matches "e" followed
///   by a combining acute, and the Kelvin sign written in a pattern matches "K".
/// - A range with an end outside ASCII matches a character whose NFC form is one scalar in the
///   range: `[à-ÿ]` matches "e" followed by a combining acute, `[A-ÿ]` the Kelvin sign. A range
///   between ASCII characters matches those characters only.
/// - CR LF is one character. A class contains it if a member matches it (`\s`, `\D`, `\W`),
///   and a negated class if none does, except a negated class of ASCII members only that holds
///   CR: `[^\r]`, `[^\n\r]` and `[^\t-\r]` do not match CR LF.
///
/// Refused where Regex refuses the pattern, or reads it one way or another depending on how it
/// compiles it:
/// - lookarounds, backreferences, possessive quantifiers, `\b`, `\u{...}`, Unicode properties,
///   nested classes (`[a[bc]]`), POSIX classes (`[[:digit:]]`), class set operations (`&&`,
///   `--`, `~~`) and escapes Regex does not know; use ``Rule/matching(_:maxLength:)`` with a
///   Swift `Regex` for those, on trusted patterns;
/// - `\r` followed by `\n` in a class: Regex reads `[\r\n]` as CR LF, one character, but
///   `[\r\n]+` as a repetition of CR or LF. Write `[\n\r]` for CR or LF;
/// - an ASCII symbol followed by a combining mark (`[` then U+0301, which looks like `[`), an
///   escape of anything but one ASCII character (`\é`), an empty class (`[]`, `[]a]`), a range
///   from or to a class (`[\w-z]`) or with an end that NFC changes (`[\u{212A}-Z]`, written
///   with the Kelvin sign);
/// - a quantifier on a quantifier (`a**`, `a{2}{3}`: write `(?:a*)*`), a braced quantifier with
///   nothing to repeat (`{2}`), and repetition counts written with other digits than 0-9.
///
/// `PatternRegexTests` in the package's tests decides the promise: a table of patterns times a
/// table of values, each compared with `Regex`'s answer, on both of the matcher's paths.
///
/// Matching is against the whole value, by `Character`, like `Regex.wholeMatch(in:)`. A value of
/// ASCII without CR LF, the common case, is matched by bytes, one per character.
///
/// ## Limits and cost
/// - Groups and quantifiers nest at most 16 deep, and a pattern compiles to at most 10,000
///   instructions (*m*); beyond either, the pattern is refused with a ``PatternError`` before it
///   is built. A pattern within the limits compiles on a thread with a 256 KB stack.
/// - Matching *n* characters visits at most 2 × (*n* + 1) × *m* instructions. Each visit costs
///   O(1), except on a character outside ASCII: a class costs O(log *r*) for *r* ranges (a class
///   of 20,000 members costs no more per character than one of 20), and a canonical comparison
///   costs in proportion to the literal's length. One character can be a letter and thousands of
///   combining marks, which would cost time quadratic in its length to normalize; it is not
///   normalized when it is too long to be equivalent to the literal, or to have an NFC form of
///   one scalar. The Compose module's "Performance" article gives the time per visit on the
///   benchmark machine; at the size limit, a 10,000-character value is at most 2 × 10⁸ visits.
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

    /// How many instruction visits matching `value` takes: the bound tests check, and the unit of
    /// the pattern benchmarks. SPI, not public API: see the Public API page in Compose's
    /// documentation.
    @_spi(Benchmarks)
    public func steps(toMatch value: some StringProtocol) -> Int {
        var steps = 0
        _ = program.wholeMatch(value, steps: &steps)
        return steps
    }

    /// Whether the whole of `value` matches, matched by `Character` even where the byte path
    /// applies: for checks that the two paths agree.
    package func matchesByCharacter(_ value: String) -> Bool {
        program.wholeMatchByCharacter(value)
    }

    /// The number of instructions of the compiled pattern (*m*): what the benchmarks check their
    /// worst case is made of. SPI, not public API: see the Public API page in Compose's
    /// documentation.
    @_spi(Benchmarks)
    public var size: Int {
        program.instructions.count
    }

    public var description: String {
        source
    }
}
