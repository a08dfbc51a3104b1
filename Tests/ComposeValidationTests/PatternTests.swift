import ComposeTestSupport
import Foundation
import Testing

@_spi(Benchmarks) @testable import ComposeValidation

@Suite struct PatternTests {
    @Test(arguments: [
        ("[A-Z]{2}[0-9]{4}", "AB1234", true),
        ("[A-Z]{2}[0-9]{4}", "AB123", false),
        ("[A-Z]{2}[0-9]{4}", "ab1234", false),
        ("[A-Z]{2}[0-9]{4}", "AB12345", false),  // whole match
        ("^a.c$", "abc", true),
        ("a.c", "a\nc", false),  // . is not a newline
        ("(ab|cd)+", "abcdab", true),
        ("(ab|cd)+", "abc", false),
        ("(?:x|y)*z", "xyxz", true),
        ("colou?r", "color", true),
        ("colou?r", "colour", true),
        ("a{2,}", "a", false),
        ("a{2,}", "aaaa", true),
        ("a{1,3}", "aaaa", false),
        ("\\d+", "٣٤", true),  // Arabic-Indic digits are decimal digits
        ("[0-9]+", "٣٤", false),
        ("\\w+", "Jill_Ü9", true),
        ("\\s*x\\s*", " \t x ", true),
        ("[^aeiou]+", "rhythm", true),
        ("[^aeiou]+", "rhythms and", false),
        ("[a\\-z]", "-", true),  // escaped hyphen is literal
        ("[a-]", "-", true),  // trailing hyphen is literal
        ("\\.", ".", true),
        ("\\.", "x", false),
        ("[.]", "x", false),
        ("é", "e\u{301}", true),  // characters compare canonically
        ("a*?b", "aab", true),  // lazy quantifier: same strings
        ("", "", true),
        ("", "x", false),
        ("(a|)", "", true),
        ("(a*)*b", "aaab", true),
        ("\\+?[0-9 ]{6,20}", "+33 6 12 34 56 78", true),
        ("{x}", "{x}", true),  // a brace that is not a quantifier is literal
    ])
    func matches(pattern: String, value: String, expected: Bool) throws {
        #expect(try Pattern(pattern).matches(value) == expected, "\(pattern) on \(value.debugDescription)")
    }

    @Test(arguments: [
        ("(a", "a group is not closed"),
        ("a)", "unexpected ')'"),
        ("[a-z", "a character class is not closed"),
        ("*a", "'*' has nothing to repeat"),
        ("a{3,1}", "{3,1} has its bounds reversed"),
        ("a{1001}", "repetition counts above 1000 are not supported"),
        ("(?=a)", "lookarounds, named groups and inline options are not supported"),
        ("(a)\\1", "backreferences are not supported"),
        ("a++", "possessive quantifiers are not supported"),
        ("\\bword", "the anchor '\\b' is not supported"),
        ("[z-a]", "the range z-a is reversed"),
        ("\\q", "'\\q' is not a known escape"),
    ])
    func rejectsWhatItDoesNotSupport(pattern: String, reason: String) {
        #expect(throws: PatternError.self) { try Pattern(pattern) }
        do {
            _ = try Pattern(pattern)
        } catch {
            #expect(error.reason == reason)
        }
    }

    @Test func matchingIsLinearEvenOnInputMadeToBeSlowForRegex() throws {
        // `(a+)+$` on "aaa…a!" takes Swift's Regex seconds at 20 characters. Here the work is
        // bounded by characters × instructions, whatever the input.
        let pattern = try Pattern("(a+)+$")
        var stepsPerCharacter: [Double] = []
        for length in [10, 1_000, 100_000] {
            let input = String(repeating: "a", count: length) + "!"
            let steps = pattern.steps(toMatch: input)
            #expect(steps <= 2 * (length + 1) * pattern.size, "\(steps) steps for \(length) characters")
            stepsPerCharacter.append(Double(steps) / Double(length + 1))
        }
        // Linear: the work per character does not grow with the input.
        #expect(stepsPerCharacter.max()! <= 1.5 * stepsPerCharacter.min()!)
        #expect(!pattern.matches(String(repeating: "a", count: 1_000) + "!"))
        #expect(pattern.matches(String(repeating: "a", count: 1_000)))
    }

    @Test func bigRepetitionsStayWithinTheProgramLimit() {
        #expect(throws: PatternError.self) { try Pattern("(((a{1000}){1000}){1000})") }
    }

    @Test func aTooLargeProgramIsRefusedBeforeItIsBuilt() {
        // Found by the fuzzer: 300,000 copies of a class took seconds to build before the limit
        // stopped them. The size is now computed from the parsed tree first.
        let started = ContinuousClock.now
        #expect(throws: PatternError.self) { try Pattern("^(?:\\d{300}){1000}{") }
        #expect(throws: PatternError.self) { try Pattern("(?:[a-z]{300}){1000}") }
        // Also found by the fuzzer: repetitions of something that compiles to nothing cost no
        // instructions, so the size check let them through, and emitting them took minutes.
        let empty = try? Pattern("^(((x{0}){1000}){1000}){1000}$")
        #expect(empty?.matches("") == true)
        #expect(empty?.matches("x") == false)
        #expect(ContinuousClock.now - started < .seconds(1))
    }

    @Test(arguments: [
        "abc", "a|bc|d", "(ab)*", "[a-z]{2,5}", "(x|y){3}", "a{2,}", "^(\\d+\\.)?\\w{1,3}$", "((a|b)c?){0,4}", "a(b{0}){3}c",
        "(x{0})*",
    ])
    func theComputedSizeIsTheBuiltSize(source: String) throws {
        let pattern = try Pattern(source)
        #expect(PatternProgram.size(of: try PatternParser.parse(source)) + 1 == pattern.size)
    }

    @Test func ruleFromAPatternAndItsFailureMode() throws {
        let rule = Rule<String>.pattern("[A-Z]{3}")
        #expect(rule.isSatisfied(by: "ABC"))
        #expect(rule.name == "pattern([A-Z]{3})")
        #expect(Rule<String>.matching(try Pattern("[0-9]+")).isSatisfied(by: "42"))
    }

    @Test func swiftRegexRuleRejectsLongInputsWithoutRunningTheRegex() {
        let rule = Rule<String>.matching(/(a+)+$/, maxLength: 50)
        #expect(rule.isSatisfied(by: "aaa"))
        // Over the limit: rejected before the backtracking engine sees it.
        #expect(!rule.isSatisfied(by: String(repeating: "a", count: 1_000_000) + "!"))
    }
}

@Suite struct PatternPathTests {
    /// The byte path (ASCII input without CR LF) and the character path must agree on every input.
    @Test(arguments: [
        "[a-c]+x?", "(ab|a)*b", ".*c.", "\\w+\\s\\d{1,3}", "[^ab]{2,4}", "a{0,3}b*", "(a|b|\\.)+", "^\\S*$",
        "[^\\r]*", "[\\n\\r]+.", "\u{212A}+.", "[\u{212A}]*", "(.|\\s)*", "[^\\t-\\r]+", "\\D*",
    ])
    func bytePathAgreesWithCharacterPath(source: String) throws {
        let pattern = try Pattern(source)
        var generator = SplitMix64(seed: source.utf8.reduce(0) { $0 &* 31 &+ UInt64($1) })  // reproducible per pattern
        // With CR and LF, which also come out as CR LF; VT and FF; and "K", equivalent to the Kelvin sign.
        let alphabet: [Character] = ["a", "b", "c", "x", " ", "1", "9", ".", "\n", "\t", "\r", "\u{0B}", "\u{0C}", "K"]
        for _ in 0..<2_000 {
            let length = Int.random(in: 0...8, using: &generator)
            let input = String((0..<length).map { _ in alphabet.randomElement(using: &generator)! })
            #expect(
                pattern.matches(input) == pattern.program.wholeMatchByCharacter(input), "\(source) on \(input.debugDescription)")
        }
    }

    /// `.` matches no line break, as in `Regex`: each one, on the byte path (ASCII) and the
    /// character path alike.
    @Test(arguments: ["\n", "\r", "\r\n", "\u{0B}", "\u{0C}", "\u{85}", "\u{2028}", "\u{2029}"])
    func aDotMatchesNoLineBreak(lineBreak: String) throws {
        let input = "a\(lineBreak)b"
        let regexMatches = try Regex("a.b").wholeMatch(in: input) != nil
        #expect(!regexMatches)
        let pattern = try Pattern("a.b")
        #expect(pattern.matches(input) == regexMatches)
        #expect(pattern.program.wholeMatchByCharacter(input) == regexMatches)
        #expect(try Pattern("a[^x]b").matches(input) == (try Regex("a[^x]b").wholeMatch(in: input) != nil))
    }

    @Test func carriageReturnsTakeTheCharacterPath() throws {
        // "\r\n" is one Character: `.` must not see two.
        #expect(try Pattern("a.b").matches("a\r\nb") == false)  // a newline is not `.`
        #expect(try Pattern("a\\s+b").matches("a\r\nb"))
        #expect(try Pattern("a..b").matches("a\r\nb") == false)
    }
}

/// What `Pattern` promises beyond matching: bounded nesting, bounded work per character, and
/// never reading a pattern differently from Swift `Regex`.
@Suite struct PatternLimitTests {
    /// Deeply nested groups: refused with a `PatternError` before the parser recurses that deep
    /// (before the fix, 3,000 levels overflowed the 8 MB main stack in debug builds, 19,000 in
    /// release).
    @Test(arguments: [20_000, 3_000, 17])
    func deeplyNestedGroupsAreRefused(depth: Int) {
        let source = String(repeating: "(", count: depth) + "a" + String(repeating: ")", count: depth)
        #expect {
            try Pattern(source)
        } throws: { error in
            (error as? PatternError)?.reason == "groups and quantifiers nest more than 16 deep"
        }
    }

    /// A quantifier on a quantifier is refused, as Swift Regex refuses it (`a**`); a quantified
    /// group counts one level per quantifier and one per group.
    @Test func quantifiedGroupsCountAsNestingAndStackedQuantifiersAreRefused() {
        #expect(throws: PatternError.self) { try Pattern("a" + String(repeating: "*", count: 10_000)) }
        #expect(throws: PatternError.self) {
            try Pattern(String(repeating: "(", count: 20) + "a" + String(repeating: ")*", count: 20))
        }
    }

    /// The deepest pattern accepted compiles and matches on a thread with a 256 KB stack, in a
    /// debug build (a debug frame of the parser is large: about 5 KB per level of nesting).
    @Test func theDeepestAcceptedPatternWorksOnASmallStack() async {
        let source = String(repeating: "(", count: 15) + "a" + String(repeating: ")", count: 15) + "*"
        let result = LockedResult()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let thread = Thread {
                result.set((try? Pattern(source))?.matches("aaa") ?? false)
                continuation.resume()
            }
            thread.stackSize = 256 << 10
            thread.start()
        }
        #expect(result.value == true)
    }

    /// `Rule.pattern` with a pattern too deep stops with the pattern error, not a stack overflow.
    @Test func ruleFromATooDeepPatternIsAClearError() async {
        await #expect(processExitsWith: .failure) {
            _ = Rule<String>.pattern(String(repeating: "(", count: 20_000) + "a" + String(repeating: ")", count: 20_000))
        }
    }

    /// A class of 20,000 members answers from a sorted table (O(log r)), and agrees with a scan
    /// of its members on every character.
    @Test func bigClassesAreCompiledToASortedTableAndAgreeWithTheirMembers() throws {
        let scattered = stride(from: 0x20000, to: 0x20000 + 40_000, by: 2).map { Character(Unicode.Scalar(UInt32($0))!) }
        let source = "[" + String(scattered) + "]+"
        let pattern = try Pattern(source)
        #expect(pattern.matches(String(scattered.prefix(1_000))))
        #expect(!pattern.matches(String(Character(Unicode.Scalar(UInt32(0x20001))!))))

        var generator = SplitMix64(seed: 7)
        for _ in 0..<300 {
            var members: [CharacterClass.Member] = []
            for _ in 0..<Int.random(in: 1...30, using: &generator) {
                let low = UInt32.random(in: 0x20...0x2FF, using: &generator)
                let high = low + UInt32.random(in: 0...40, using: &generator)
                switch Int.random(in: 0...3, using: &generator) {
                case 0: members.append(.character(Character(Unicode.Scalar(low)!)))
                case 1: members.append(.digit)
                default: members.append(.range(Unicode.Scalar(low)!...Unicode.Scalar(high)!))
                }
            }
            let negated = Bool.random(using: &generator)
            let plain = CharacterClass(members: members, isNegated: negated)
            let compiled = plain.compiled()
            for _ in 0..<50 {
                let scalar = Unicode.Scalar(UInt32.random(in: 0x20...0x340, using: &generator))!
                let character = Character(scalar)
                #expect(compiled.contains(character) == plain.contains(character), "\(members) on \(scalar)")
            }
            #expect(compiled.contains("e\u{301}") == plain.contains("e\u{301}"))
        }
    }

    /// One character can be a letter and 40,000 combining marks, and comparing it canonically
    /// (or taking its NFC form) costs time quadratic in its length: half a second here. It is
    /// not needed: a character more than four times longer than a literal (a scalar decomposes
    /// into four at most) is not equivalent to it, and one of more than four scalars has no NFC
    /// form of one scalar for a range to hold.
    @Test(arguments: [
        ("é", false), ("[é]", false), ("[à-ÿ]", false), ("[^é]", true), ("(?:\u{212A}|x)", false), (".", true), ("\\w", true),
        ("[\\d\\s]", false), ("a", false),
    ])
    func aCharacterOfManyCombiningMarksCostsNoMoreThanAShortOne(source: String, expected: Bool) throws {
        var value = "a"
        for index in 0..<40_000 { value.unicodeScalars.append(index % 2 == 0 ? "\u{301}" : "\u{316}") }
        let pattern = try Pattern(source)
        let started = ContinuousClock.now
        #expect(pattern.matches(value) == expected)
        #expect((try Regex(source).wholeMatch(in: "a\u{301}\u{316}") != nil) == expected)
        #expect(ContinuousClock.now - started < .milliseconds(100))
    }

    /// What Swift `Regex` reads as POSIX classes, nested classes or class set operations is
    /// refused; before the fix `[[:digit:]]+` matched ":]" and not "123".
    @Test(arguments: ["[[:digit:]]+", "[a[bc]]", "[a-z&&[^aeiou]]", "[a-c--b]", "[a~~b]", "[a-[]"])
    func classSyntaxRegexReadsDifferentlyIsRefused(source: String) {
        #expect(throws: PatternError.self) { try Pattern(source) }
    }

    /// Accepted, and read as `Regex` reads it.
    @Test(arguments: [
        ("a{,3}", "", true), ("a{,3}", "aaa", true), ("a{,3}", "aaaa", false), ("a{,}", "a{,}", true),
        ("a\\r\\nb", "a\r\nb", true), ("a\\r\\nb", "a\rb", false), ("[\\[\\]]+", "[]", true), ("[a-]", "-", true),
        // Line breaks: CR LF is one character; `.` is none of LF, VT, FF, CR or CR LF.
        ("[^\\r]", "\r\n", false), ("[^\\r]", "\n", true), ("[\\n\\r]", "\r", true), ("[\\n\\r]", "\n", true),
        ("[\\n\\r]", "\r\n", false), ("\\s", "\r\n", true), (".", "\r", false), (".", "\n", false), (".", "\r\n", false),
        (".", "\u{0B}", false), (".", "\u{0C}", false), ("a.b", "a\u{0B}b", false), ("\\s+", "\u{0B}\u{0C}", true),
        // `\d` is a number, as `Character.isNumber` says: "²" and "Ⅻ" too.
        ("\\d", "²", true), ("\\d", "Ⅻ", true), ("[\\d]", "²", true), ("\\D", "²", false), ("\\D", "Ⅻ", false),
        // The Kelvin sign is canonically equivalent to "K": an ASCII member matches only "K" itself.
        ("[K]", "\u{212A}", false), ("[\u{212A}]", "K", true), ("\u{212A}", "K", true), ("[A-Z]", "\u{212A}", false),
        // A combining mark on its own, and after a letter.
        ("[^a]", "\u{301}", true), ("\\w", "\u{301}", false), ("[é]", "e\u{301}", true), ("[a-z]", "e\u{301}", false),
        ("[à-ÿ]", "e\u{301}", true), (".", "e\u{301}", true), ("e", "e\u{301}", false),
    ])
    func agreesWithRegex(source: String, value: String, expected: Bool) throws {
        #expect(try Pattern(source).matches(value) == expected, "\(source) on \(value.debugDescription)")
        let regex = try Regex(source)
        #expect((try regex.wholeMatch(in: value) != nil) == expected, "Regex: \(source) on \(value.debugDescription)")
    }
}

private final class LockedResult: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Bool?
    func set(_ value: Bool) { lock.withLock { stored = value } }
    var value: Bool? { lock.withLock { stored } }
}
