import ComposeValidation
import Testing

/// Values a user can type or paste: huge, empty, emoji, combining characters, nil. Each rule
/// gives a documented result, in time linear in the input (checked by construction and by the
/// pattern step counts in PatternTests; timed in the benchmark executable, never here).
@Suite struct BadInputTests {
    static let megabyte = String(repeating: "a", count: 1_000_000)

    /// Half a minute under ThreadSanitizer: yields between rules so that other tests get this
    /// thread of the pool meanwhile.
    @Test func aMegabyteThroughEveryRule() async {
        let huge = Self.megabyte
        #expect(Rule<String>.nonEmpty.isSatisfied(by: huge))
        #expect(Rule<String>.nonBlank.isSatisfied(by: huge))
        await Task.yield()
        #expect(!Rule.email.isSatisfied(by: huge))  // O(1): over 254 bytes
        #expect(!Rule.email.isSatisfied(by: huge + "@example.com"))
        await Task.yield()
        #expect(Rule.length(0...Int.max).isSatisfied(by: huge))  // O(1)
        #expect(!Rule.length(0...1_000).isSatisfied(by: huge))  // stops after 1,001
        #expect(Rule.length(1_000_000...1_000_000).isSatisfied(by: huge))
        await Task.yield()
        #expect(Rule<String>.pattern("a*").isSatisfied(by: huge))
        await Task.yield()
        #expect(!Rule<String>.pattern("(a|aa)+b").isSatisfied(by: huge))  // made to backtrack
        await Task.yield()
        #expect(!Rule.equal(to: "a").isSatisfied(by: huge))
    }

    @Test func whiteSpaceOnlyMegabyteIsBlank() {
        let spaces = String(repeating: " ", count: 1_000_000)
        #expect(Rule<String>.nonEmpty.isSatisfied(by: spaces))
        #expect(!Rule<String>.nonBlank.isSatisfied(by: spaces))
    }

    @Test func emptyStrings() {
        #expect(!Rule<String>.nonEmpty.isSatisfied(by: ""))
        #expect(!Rule<String>.nonBlank.isSatisfied(by: ""))
        #expect(!Rule.email.isSatisfied(by: ""))
        #expect(Rule.length(0...3).isSatisfied(by: ""))
        #expect(!Rule<String>.pattern("a+").isSatisfied(by: ""))
    }

    @Test func emojiAndCombiningCharacters() {
        let name = "Zoë" + "\u{301}" + "🧑🏽‍💻"
        #expect(Rule.length(4...4).isSatisfied(by: name))  // Z, o, ë + accent, coder with tone
        #expect(!Rule.email.isSatisfied(by: "🧑@example.com"))
        #expect(Rule<String>.pattern("\\w+.").isSatisfied(by: "Zoë🧑🏽‍💻"))
    }

    @Test func nilValues() {
        let nothing: Int? = nil
        #expect(Validation { Field(nothing, rules: .range(1...10)) }.isValid)
        #expect(!Validation { Field(nothing, rules: .required, .range(1...10)) }.isValid)
    }
}
