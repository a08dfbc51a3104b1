import ComposeTestSupport
import ComposeValidation
import Testing

@Suite struct RuleTests {
    @Test func lengthCountsCharactersNotScalarsOrBytes() {
        let combining = "e\u{301}"  // é as e + combining acute: one character
        let family = "👨‍👩‍👧‍👦"  // seven scalars: one character
        let flag = "🇫🇷"  // two regional indicators: one character
        #expect(combining.unicodeScalars.count == 2)
        #expect(Rule.length(1...1).isSatisfied(by: combining))
        #expect(Rule.length(1...1).isSatisfied(by: family))
        #expect(Rule.length(1...1).isSatisfied(by: flag))
        #expect(Rule.length(3...3).isSatisfied(by: "a\(family)b"))
        #expect(!Rule.length(2...2).isSatisfied(by: family))
    }

    @Test(arguments: [
        ("", 0...0, true), ("", 1...5, false), ("abc", 3...3, true), ("abc", 4...10, false),
        ("abcdef", 0...5, false), ("abc", 0...Int.max, true), ("", 0...Int.max, true),
    ])
    func lengthBounds(value: String, range: ClosedRange<Int>, valid: Bool) {
        #expect(Rule.length(range).isSatisfied(by: value) == valid)
    }

    /// Every range, bounded or not, against strings whose characters take 1 to 25 UTF-8 bytes:
    /// the rule's answer is always `range.contains(value.count)`, whatever its byte-count
    /// shortcuts decide on the way.
    @Test func lengthAgreesWithTheCharacterCountForEveryRange() {
        let alphabet = ["a", "é", "e\u{301}", "👍", "👨‍👩‍👧‍👦", "🇫🇷", "\r\n", "中"]
        var generator = SplitMix64(seed: 11)
        for _ in 0..<400 {
            let value = (0..<Int.random(in: 0...6, using: &generator))
                .map { _ in alphabet.randomElement(using: &generator)! }
                .joined()
            for lower in 0...7 {
                for upper in [lower, lower + 1, lower + 3, 30, Int.max] {
                    let range = lower...upper
                    #expect(
                        Rule.length(range).isSatisfied(by: value) == range.contains(value.count),
                        "\(range) on \(value.unicodeScalars.map { String($0.value, radix: 16) })")
                    #expect(Rule<String>.length(lower...).isSatisfied(by: value) == (value.count >= lower))
                }
            }
        }
        #expect(!Rule<String>.length(6...).isSatisfied(by: "👍👍"))  // 8 bytes, 2 characters
        #expect(!Rule.length(2...5).isSatisfied(by: "é"))  // 2 bytes, 1 character
    }

    @Test func partialLengthRanges() {
        #expect(Rule<String>.length(3...).isSatisfied(by: "abc"))
        #expect(!Rule<String>.length(3...).isSatisfied(by: "ab"))
        #expect(Rule<String>.length(...2).isSatisfied(by: "ab"))
        #expect(!Rule<String>.length(...2).isSatisfied(by: "abc"))
    }

    @Test func nonEmptyAndNonBlank() {
        #expect(!Rule<String>.nonEmpty.isSatisfied(by: ""))
        #expect(Rule<String>.nonEmpty.isSatisfied(by: "  "))  // spaces are characters
        #expect(!Rule<String>.nonBlank.isSatisfied(by: " \t\n\u{00A0}\u{2003}"))  // all Unicode white space
        #expect(Rule<String>.nonBlank.isSatisfied(by: " x "))
        #expect(Rule<String>.nonBlank.isSatisfied(by: "\u{200B}"))  // zero-width space is not white space
        #expect(!Rule<[Int]>.nonEmpty.isSatisfied(by: []))
        #expect(Rule<[Int]>.count(1...2).isSatisfied(by: [1, 2]))
    }

    @Test func rangesForAnyComparable() {
        #expect(Rule.range(18...130).isSatisfied(by: 18))
        #expect(!Rule.range(18...130).isSatisfied(by: 17))
        #expect(Rule.range(0.5...).isSatisfied(by: 0.75))
        #expect(!Rule.range(..."m").isSatisfied(by: "z"))
        #expect(Rule.range(18...130).name == "range(18...130)")
    }

    @Test func predicateAndComposition() {
        let even = Rule<Int>.predicate("even", requirement: "must be even") { $0.isMultiple(of: 2) }
        let positive = Rule<Int>.range(1...)
        #expect((even && positive).isSatisfied(by: 4))
        #expect(!(even && positive).isSatisfied(by: -4))
        #expect((even || positive).isSatisfied(by: -4))
        #expect(!(even || positive).isSatisfied(by: -3))
        #expect((!even).isSatisfied(by: 3))
        #expect(Rule.not(even).name == "not(even)")
        #expect(even.and(positive).name == "even and range(1...)")
    }

    @Test func optionalValues() {
        let missing: String? = nil
        let present: String? = "jill@example.com"
        let malformed: String? = "jill"
        #expect(Validation { Field(missing, rules: .email) }.isValid)  // nil is fine...
        #expect(Validation { Field(missing, rules: .required, .email) }.errors.map(\.rule) == ["required"])  // ...unless required
        #expect(Validation { Field(present, rules: .required, .email) }.isValid)
        #expect(Validation { Field(malformed, rules: .required, .email) }.errors.map(\.rule) == ["email"])
        #expect(Validation { Field(missing, rules: [.required: "Tell us your email"]) }.messages == ["Tell us your email"])
        #expect(Validation { Field("x", rules: .required) }.isValid)  // a non-optional value is present
    }

    @Test func firstFailingRuleIsReported() {
        let errors = Validation { Field("", name: "email", rules: .nonEmpty, .email) }.errors
        #expect(errors.map(\.rule) == ["nonEmpty"])
        #expect(errors.first?.message == "email must not be empty")
    }

    @Test func userDefinedRules() {
        #expect(Rule.zipCode.isSatisfied(by: "90210"))
        #expect(!Rule.zipCode.isSatisfied(by: "9021O"))
        #expect(Validation { Field("1", name: "zip", rules: .zipCode) }.message(for: "zip") == "zip must be a 5-digit ZIP code")
    }
}

extension Rule where Value == String {
    static var zipCode: Rule {
        Rule("zipCode", requirement: "must be a 5-digit ZIP code") { value in
            value.count == 5 && value.allSatisfy { $0.isASCII && $0.isNumber }
        }
    }
}
