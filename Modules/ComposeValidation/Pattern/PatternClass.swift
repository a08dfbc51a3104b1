/// A set of characters: `[a-z0-9_]`, `\d`, `[^\s]`.
///
/// Membership is Swift Regex's, in its default reading (by `Character`):
/// - an ASCII member (`a`, `\n`, a range between ASCII characters) matches that one-scalar
///   character only: `[K]` does not match the Kelvin sign, though it is canonically equivalent
///   to "K";
/// - any other member character matches what compares equal to it, canonically: `[é]` matches
///   "e" followed by a combining acute, `[\u{212A}]` (the Kelvin sign) matches "K";
/// - a range with an end outside ASCII matches a character whose NFC form is one scalar in the
///   range: `[à-ÿ]` matches "e" followed by a combining acute, and `[A-ÿ]` the Kelvin sign;
/// - `\d` is a number (`Character.isNumber`: "²", "½" and "Ⅻ" too), `\w` a letter, number or
///   `_`, `\s` whitespace;
/// - CR LF, one character, is in a class if a member matches it (`\s`, `\D`, `\W`, a CR LF
///   written as is), and in a negated class otherwise; except that a negated class of ASCII
///   members only with CR (`[^\r]`, `[^\n\r]`, `[^\t-\r]`) leaves it out, as Regex does by
///   reading its first scalar.
///
/// Membership costs O(1) for an ASCII character or CR LF (a bitmap and a flag), and
/// O(log *r*) otherwise, for *r* ranges: ``compiled()`` merges the ranges into a sorted list
/// searched by bisection, and keeps the other literal characters in a set, so a class of 20,000
/// members costs no more per character than one of 20.
struct CharacterClass: Equatable, Sendable {
    enum Member: Equatable, Sendable {
        case range(ClosedRange<Unicode.Scalar>)
        case character(Character)
        case digit, word, whitespace
        case notDigit, notWord, notWhitespace
    }

    var members: [Member]
    var isNegated = false
    /// Which ASCII characters the class contains, one bit each: most input is ASCII, and a
    /// bitmap answers for it in O(1). Filled in by ``compiled()``.
    private var ascii: (low: UInt64, high: UInt64) = (0, 0)
    /// Whether the class contains CR LF. Filled in by ``compiled()``.
    private var containsCRLF = false
    /// The scalar values of the ranges with an end outside ASCII, merged and sorted:
    /// `bounds[2i]...bounds[2i + 1]`.
    private var bounds: [UInt32] = []
    /// The literal members that are not one ASCII scalar.
    private var literals: Set<Character> = []
    /// The most scalars a character equivalent to a member of `literals` can have: longer ones
    /// are not looked up, which would hash them in time quadratic in their length.
    private var longestLiteral = 0
    /// The named members (`\d`, `\W`, ...), checked one by one: there are at most six.
    private var named: [Member] = []
    private var isCompiled = false

    init(members: [Member], isNegated: Bool = false) {
        self.members = members
        self.isNegated = isNegated
    }

    /// Whether every member is ASCII: Regex then tests a character against a bitmap of its
    /// first scalar, which decides how a negated class reads CR LF.
    private var isASCIIOnly: Bool {
        members.allSatisfy { member in
            switch member {
            case .range(let range): range.upperBound.isASCII
            case .character(let character): character.asciiScalar != nil
            default: false
            }
        }
    }

    /// The class with its lookup structures built.
    ///
    /// - Complexity: O(*k* log *k*) for *k* members.
    func compiled() -> CharacterClass {
        var result = self
        var ranges: [ClosedRange<UInt32>] = []
        var asciiMembers = Set<UInt8>()
        for member in members {
            switch member {
            case .range(let range) where range.upperBound.isASCII:
                for value in range.lowerBound.value...range.upperBound.value { asciiMembers.insert(UInt8(value)) }
            case .range(let range): ranges.append(range.lowerBound.value...range.upperBound.value)
            case .character(let character):
                if let scalar = character.asciiScalar { asciiMembers.insert(scalar) } else { result.literals.insert(character) }
            default: if !result.named.contains(member) { result.named.append(member) }
            }
        }
        ranges.sort { $0.lowerBound < $1.lowerBound }
        var merged: [ClosedRange<UInt32>] = []
        for range in ranges {
            if let last = merged.last, range.lowerBound <= last.upperBound &+ 1 {
                merged[merged.count - 1] = last.lowerBound...max(last.upperBound, range.upperBound)
            } else {
                merged.append(range)
            }
        }
        result.bounds = merged.flatMap { [$0.lowerBound, $0.upperBound] }
        result.longestLiteral = 4 * (result.literals.map(\.unicodeScalars.count).max() ?? 0)
        result.isCompiled = true
        for code in UInt8(0)..<128 where asciiMembers.contains(code) || result.looksUp(Character(Unicode.Scalar(code))) {
            if code < 64 { result.ascii.low |= 1 << UInt64(code) } else { result.ascii.high |= 1 << UInt64(code - 64) }
        }
        if isNegated {
            result.ascii = (~result.ascii.low, ~result.ascii.high)
        }
        result.containsCRLF =
            isASCIIOnly ? isNegated && !asciiMembers.contains(0x0D) : result.looksUp("\r\n") != isNegated
        return result
    }

    /// - Complexity: O(1) for an ASCII character or CR LF; O(log *r*) otherwise.
    func contains(_ character: Character) -> Bool {
        guard isCompiled else { return containsByMembers(character) }
        if let scalar = character.asciiScalar { return containsASCII(scalar) }
        if character.isCRLF { return containsCRLF }
        return looksUp(character) != isNegated
    }

    /// Whether a member other than an ASCII one matches `character`, through the compiled
    /// structures: the ranges outside ASCII, the literal set and the named classes.
    private func looksUp(_ character: Character) -> Bool {
        if !bounds.isEmpty, let scalar = character.singleNFCScalar, inRanges(scalar.value) { return true }
        if !literals.isEmpty, character.hasAtMost(longestLiteral), literals.contains(character) { return true }
        return named.contains { $0.matches(character) }
    }

    /// Membership by a scan of the members: what the compiled structures must agree with.
    private func containsByMembers(_ character: Character) -> Bool {
        if character.isCRLF, isASCIIOnly {
            return isNegated && !members.contains { $0.matches("\r") }
        }
        return members.contains { $0.matches(character) } != isNegated
    }

    /// Bisection over `bounds`.
    private func inRanges(_ value: UInt32) -> Bool {
        var low = 0
        var high = bounds.count / 2
        while low < high {
            let middle = (low + high) / 2
            if value < bounds[2 * middle] {
                high = middle
            } else if value > bounds[2 * middle + 1] {
                low = middle + 1
            } else {
                return true
            }
        }
        return false
    }

    /// Whether the ASCII character `byte` is in the class; the class must be compiled.
    func containsASCII(_ byte: UInt8) -> Bool {
        let code = UInt64(byte)
        return code < 64 ? ascii.low & (1 << code) != 0 : ascii.high & (1 << (code - 64)) != 0
    }

    static func == (lhs: CharacterClass, rhs: CharacterClass) -> Bool {
        lhs.members == rhs.members && lhs.isNegated == rhs.isNegated
    }
}

extension CharacterClass.Member {
    /// Whether the member matches `character`, as Regex matches it (see ``CharacterClass``).
    func matches(_ character: Character) -> Bool {
        switch self {
        case .range(let range) where range.upperBound.isASCII:
            return character.asciiScalar.map { range.contains(Unicode.Scalar($0)) } ?? false
        case .range(let range):
            return character.singleNFCScalar.map(range.contains) ?? false
        case .character(let member):
            guard let scalar = member.asciiScalar else { return character.mayBeEquivalent(to: member) && character == member }
            return character.asciiScalar == scalar
        case .digit: return character.isNumber
        case .word: return character.isWordCharacter
        case .whitespace: return character.isWhitespace
        case .notDigit: return !character.isNumber
        case .notWord: return !character.isWordCharacter
        case .notWhitespace: return !character.isWhitespace
        }
    }
}
