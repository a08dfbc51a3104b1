import Testing

@testable import ComposeValidation

/// The promise that a `Pattern` never reads a pattern differently from Swift's `Regex`: a
/// pattern is either refused with a `PatternError`, or matches exactly the values
/// `Regex(source).wholeMatch(in:)` matches, on the byte path and the character path alike.
@Suite struct PatternRegexTests {
    /// Values where readings part: line breaks, CR LF (one `Character`), numbers that are not
    /// decimal digits, the Kelvin sign (canonically equivalent to "K"), combining marks alone and
    /// after a letter, and characters whose NFC form is another scalar.
    static let values: [String] = [
        "", "a", "b", "z", "K", "k", "\u{212A}", "e", "é", "e\u{301}", "a\u{301}", "A\u{301}", "\u{301}", "1\u{301}",
        "\r", "\n", "\r\n", "\r\n\r\n", "a\r\n", "\r\na", "\n\r", "\u{0B}", "\u{0C}", "\u{85}", "\u{2028}", "\t", " ",
        "\u{A0}", "0", "5", "²", "Ⅻ", "½", "٣", "五", "_", "-", ".", "]", "^", ";", "\u{37E}", "Ω", "\u{2126}", "Å",
        "\u{212B}", "ß", "ÿ", "\u{0}", "\u{1F}", "\u{7F}", "aa", "ab", "abc", "a1", "K\u{212A}", "x\u{0B}y", "🇫🇷",
        "👩‍👩‍👧",
    ]

    /// Patterns that compile, and so must agree with `Regex` on every value above.
    static let acceptedPatterns: [String] = [
        // Classes and negated classes of ASCII members.
        "[a]", "[abc]", "[a-z]", "[A-Z]", "[K]", "[^K]", "[k]", "[0-9]", "[^0-9]", "[^a]", "[ -~]", "[^ -~]",
        "[a-]", "[-a]", "[\\-]", "[\\\\]", "[\\[\\]]", "[.]", "[$^]", "[;]", "[_]",
        // Line breaks in classes.
        "[\\n]", "[\\r]", "[\\t]", "[^\\n]", "[^\\r]", "[\\t-\\r]", "[^\\t-\\r]", "[\\n\\r]", "[^\\n\\r]", "[\\ra]",
        "[^\\ra]", "[^\\rĀ]", "[^\\r\\d]", "[\\r\\d]", "[^\\n\\s]", "[\r\n]", "[^\r\n]",
        // Named classes, inside and outside brackets.
        "\\d", "\\D", "\\w", "\\W", "\\s", "\\S", ".", "[\\d]", "[\\D]", "[^\\d]", "[\\w]", "[^\\w]", "[\\s]", "[^\\s]",
        "[\\S]", "[\\W]", "[\\dA-Z]", "[^\\dA-Z]", "[\\w-]", "[a-b-c]", "[\\--a]",
        // Members outside ASCII: compared canonically, ranges by NFC.
        "[é]", "[e\u{301}]", "[^é]", "[à-ÿ]", "[A-ÿ]", "[^A-ÿ]", "[A-Zé]", "[^A-Zé]", "[\u{212A}]", "[^\u{212A}]",
        "[\u{212A}a]", "[Ω]", "[\u{2126}]", "[Α-Ω]", "[\u{37E}]", "[Å]", "[²]", "[½-¾]",
        // Literals.
        "a", "K", "\u{212A}", "é", "e\u{301}", "\\r", "\\n", "\\t", "\\r\\n", "\r\n", "²", ";", "\u{37E}", "\u{1FEF}",
        "ß", "\\.", " ", "\\]", "]", "}", "{", "{x}",
        // Quantified and combined.
        "[^\\r]+", "[\\n\\r]+", "[^\\n\\r]*", "\\d+", "\\D+", ".+", ".*", "[^a]+", "a.c", "\\r\\n+", "\\r\\n?", "\\r*\\n",
        "\\s+", "[A-ÿ]+", "(\\r)(\\n)", "(?:\\r)\\n", "\\r(\\n)", "[\\r]\\n", "a{ 2 }", "a{2 ,3}", "a{ ,3}", "a{ , }",
        "K+", "\u{212A}+", "(?:[^\\r])+", "[^\\rĀ]+", ".{2}", "x.y",
    ]

    @Test(arguments: acceptedPatterns)
    func agreesWithRegexOnEveryValue(source: String) throws {
        let pattern = try Pattern(source)
        let regex = try Regex(source)
        for value in Self.values {
            let expected = try regex.wholeMatch(in: value) != nil
            #expect(pattern.matches(value) == expected, "\(source.debugDescription) on \(value.debugDescription)")
            #expect(
                pattern.matchesByCharacter(value) == expected,
                "by character: \(source.debugDescription) on \(value.debugDescription)")
        }
    }

    /// What `Regex` refuses, or reads in a way that depends on how it compiles the pattern, is
    /// refused with a `PatternError` that names the construct.
    @Test(arguments: [
        // `[\r\n]` is the one character CR LF, but `[\r\n]+` repeats CR or LF (Regex merges
        // `\r` and `\n` into CR LF except where its quantifier shortcut applies).
        ("[\\r\\n]", "'\\r' followed by '\\n' in a character class"),
        ("[^\\r\\n]", "'\\r' followed by '\\n' in a character class"),
        ("[a\\r\\n]+", "'\\r' followed by '\\n' in a character class"),
        ("[\\r\n]", "'\\r' followed by '\\n' in a character class"),
        ("[\r\\n]", "'\\r' followed by '\\n' in a character class"),
        ("[\\r\\n-z]", "'\\r' followed by '\\n' in a character class"),
        // Regex refuses an empty class, and does not read a ']' right after '[' as a member.
        ("[]a]", "a character class cannot be empty"), ("[^]a]", "a character class cannot be empty"),
        // A metacharacter with a combining mark: Regex refuses it as confusable.
        ("[\u{301}]", "'[\u{301}' is an ASCII symbol with a combining mark"),
        ("[\\u{301}]", "'\\u' is not supported"),
        ("[a\u{301}-\u{301}]", "'-\u{301}' is an ASCII symbol with a combining mark"),
        ("[a-]\u{301}", "']\u{301}' is an ASCII symbol with a combining mark"),
        ("a*\u{301}", "'*\u{301}' is an ASCII symbol with a combining mark"),
        (".\u{301}", "'.\u{301}' is an ASCII symbol with a combining mark"),
        (" \u{301}", "' \u{301}' is an ASCII symbol with a combining mark"),
        // An escape of anything but one ASCII character.
        ("\\d\u{301}", "'\\d\u{301}' is not a known escape"),
        ("[\\t\u{301}]", "'\\t\u{301}' is not a known escape"),
        ("\\é", "'\\é' is not a known escape"),
        // A range's ends must be single scalars in NFC, not classes.
        ("[\\w-a]", "a range cannot start with a character class"), ("[^\\d-z]", "a range cannot start with a character class"),
        ("[a-\\d]", "a range cannot end with a character class"),
        ("[\u{212A}-Z]", "the range end '\u{212A}' is not in NFC"),
        ("[\u{2126}-\u{2127}]", "the range end '\u{2126}' is not in NFC"),
        // Repetition counts: stacked quantifiers, nothing to repeat, digits outside ASCII.
        ("a**", "a quantifier cannot follow another"),
        ("a{2}{3}", "a quantifier cannot follow another"),
        ("a*??", "a quantifier cannot follow another"),
        ("{2}", "'{' has nothing to repeat"),
        ("a|{2}", "'{' has nothing to repeat"),
        ("a{²}", "repetition counts are written with the digits 0-9"),
        ("a{1٣}", "repetition counts are written with the digits 0-9"),
        ("a{2\u{301}}", "repetition counts are written with the digits 0-9"),
        ("a{99999999999999999999}", "repetition counts above 1000 are not supported"),
    ])
    func refusedWhereRegexRefusesOrWavers(source: String, naming construct: String) {
        #expect {
            try Pattern(source)
        } throws: { error in
            (error as? PatternError)?.reason.contains(construct) == true
        }
    }

    /// `.` on every ASCII character and on CR LF, on both paths: Regex excludes LF, VT, FF and
    /// CR (0x0A to 0x0D) and CR LF.
    @Test(arguments: ["\\d", "\\D", "\\w", "\\W", "\\s", "\\S", ".", "[^\\r]", "[^\\n\\r]", "[\\s]", "[^a]", "[^\\rĀ]"])
    func agreesWithRegexOnEveryASCIICharacter(source: String) throws {
        let pattern = try Pattern(source)
        let regex = try Regex(source)
        let values = (0..<128).map { String(UnicodeScalar(UInt8($0))) } + ["\r\n"]
        for value in values {
            let expected = try regex.wholeMatch(in: value) != nil
            #expect(pattern.matches(value) == expected, "\(source) on \(value.debugDescription)")
            #expect(pattern.matchesByCharacter(value) == expected, "by character: \(source) on \(value.debugDescription)")
        }
    }

    /// The disagreements found by an independent check, each with `Regex`'s answer.
    @Test(arguments: [
        ("[^\\r]", "\r\n", false), ("[^\\r]", "\n", true), ("[^\\rĀ]", "\r\n", true), ("[\\n\\r]", "\r\n", false),
        ("[\\n\\r]", "\r", true), ("\\d", "²", true), ("\\d", "Ⅻ", true), ("[\\d]", "²", true), ("\\D", "Ⅻ", false),
        ("\\d", "1\u{301}", true), ("[K]", "\u{212A}", false), ("[\u{212A}]", "K", true), ("\u{212A}", "K", true),
        ("[A-Z]", "\u{212A}", false), ("[A-ÿ]", "\u{212A}", true), ("[à-ÿ]", "e\u{301}", true), ("(\\r)(\\n)", "\r\n", false),
        ("a{ 2 }", "aa", true), (".", "\u{0B}", false), (".", "\u{0C}", false), (".", "\r", false), ("a.b", "a\rb", false),
    ])
    func readsAsRegexReads(source: String, value: String, expected: Bool) throws {
        let pattern = try Pattern(source)
        #expect(pattern.matches(value) == expected, "\(source) on \(value.debugDescription)")
        #expect(pattern.matchesByCharacter(value) == expected, "by character: \(source) on \(value.debugDescription)")
        #expect((try Regex(source).wholeMatch(in: value) != nil) == expected, "Regex: \(source) on \(value.debugDescription)")
    }

    /// The standard library's NFC, an SPI Pattern uses as `Regex` does (see `StandardLibraryNFC`),
    /// gives the normalization form C: compositions composed, singletons replaced, exclusions
    /// left decomposed.
    @Test(
        arguments: [
            ("e\u{301}", "\u{E9}"), ("\u{212A}", "K"), ("\u{2126}", "\u{3A9}"), ("\u{212B}", "\u{C5}"),
            ("\u{37E}", ";"), ("a", "a"), ("\u{E9}", "\u{E9}"), ("\u{FB2C}", "\u{5E9}\u{5BC}\u{5C1}"),
        ] as [(String, String)])
    func theStandardLibrarysNFCIsNFC(character: String, nfc: String) {
        let scalars = StandardLibraryNFC.scalars(of: Character(character))
        #expect(scalars == Array(nfc.unicodeScalars))
    }
}
