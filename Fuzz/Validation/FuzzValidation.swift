// A libFuzzer target for validation rules over arbitrary strings.
//
//   Scripts/fuzz validation 60        # fuzz for 60 seconds (builds with -sanitize=fuzzer,address)
//   swift run FuzzValidation FILE…    # replay inputs (a crash's, or the corpus) without libFuzzer
//
// An input is a pattern and a value, separated by the first NUL byte (without one, the whole
// input is both). Every rule must decide any value without crashing, and agree with what its
// documentation says it checks. A `Pattern` compiled from arbitrary source either compiles or
// throws a `PatternError`; matching takes at most 2 × (n + 1) × m steps for n characters and a
// program of m instructions (linear in the value, whatever the pattern), and matching by bytes
// agrees with matching by characters.

@_spi(Benchmarks) import ComposeValidation
import FuzzSupport

func checkPattern(_ source: String, against value: String) {
    let pattern: Pattern
    do {
        pattern = try Pattern(source)
    } catch {
        precondition(!error.reason.isEmpty, "a pattern error without a reason")
        return
    }
    precondition(pattern.source == source)
    let characters = value.count
    for candidate in [value, source, String(value.prefix(characters / 2)), ""] {
        let steps = pattern.steps(toMatch: candidate)
        let bound = 2 * (candidate.count + 1) * pattern.size
        precondition(
            steps <= bound,
            "\(steps) steps (bound \(bound)) matching \(candidate.debugDescription) against \(source.debugDescription)")
        precondition(
            pattern.matches(candidate) == pattern.matchesByCharacter(candidate),
            "the byte and character paths disagree on \(candidate.debugDescription) against \(source.debugDescription)"
        )
        precondition(Rule<String>.matching(pattern).isSatisfied(by: candidate) == pattern.matches(candidate))
    }
}

func checkRules(_ value: String) {
    precondition(Rule<String>.nonEmpty.isSatisfied(by: value) == !value.isEmpty)
    precondition(Rule<String>.nonBlank.isSatisfied(by: value) == !value.allSatisfy(\.isWhitespace))
    let isEmail = Rule<String>.email.isSatisfied(by: value)
    if isEmail {
        precondition(value.utf8.count <= 254 && value.contains("@"), "\(value.debugDescription) passed .email")
    }
    precondition(Rule<Substring>.email.isSatisfied(by: Substring(value)) == isEmail, "String and Substring disagree")
    let count = value.count
    precondition(Rule<String>.length(3...8).isSatisfied(by: value) == (3...8).contains(count))
    precondition(Rule<String>.length(5...).isSatisfied(by: value) == (count >= 5))
    precondition(Rule<String>.length(...4).isSatisfied(by: value) == (count <= 4))
    precondition(Rule<String>.equal(to: "jill@example.com").isSatisfied(by: value) == (value == "jill@example.com"))
    let both = Rule<String>.nonEmpty && .email
    let either = Rule<String>.length(...4) || .email
    precondition(both.isSatisfied(by: value) == (!value.isEmpty && isEmail))
    precondition(either.isSatisfied(by: value) == (count <= 4 || isEmail))
    precondition((!Rule<String>.email).isSatisfied(by: value) == !isEmail)

    if let number = Int(value) {
        precondition(Rule<Int>.range(0...120).isSatisfied(by: number) == (0...120).contains(number))
    }
    let optional: String? = value.isEmpty ? nil : value
    let form = Validation("form") {
        Field(value, name: "email", rules: .nonEmpty, .email)
        Field(optional, name: "nickname", rules: .required, .length(...30))
        Field(value, name: "code", rules: [.nonBlank: "enter a code", .length(3...8): "3 to 8 characters"])
    }
    // One error at most per field, each with a message, and valid exactly when none failed.
    precondition(form.errors.count <= 3 && form.messages.allSatisfy { !$0.isEmpty })
    if form.errors.isEmpty { precondition(form.isValid("form.email")) }
    precondition(form.isValid("form.email") == (!value.isEmpty && isEmail))
}

func check(_ bytes: UnsafeBufferPointer<UInt8>) {
    let text = String(decoding: bytes, as: UTF8.self)
    let source: String
    let value: String
    if let separator = bytes.firstIndex(of: 0) {
        source = String(decoding: UnsafeBufferPointer(rebasing: bytes[..<separator]), as: UTF8.self)
        value = String(decoding: UnsafeBufferPointer(rebasing: bytes[(separator + 1)...]), as: UTF8.self)
    } else {
        source = text
        value = text
    }
    checkRules(value)
    checkPattern(source, against: value)
}

#if FUZZING
@_cdecl("FuzzValidation_main")
func fuzzerMain(_ argc: CInt, _ argv: FuzzerArguments) -> CInt { runFuzzer(argc, argv, check) }
#else
/// Without libFuzzer: replays the files given (or every file of the directories given).
@main enum Replay { static func main() throws { try replay(CommandLine.arguments.dropFirst(), check) } }
#endif
