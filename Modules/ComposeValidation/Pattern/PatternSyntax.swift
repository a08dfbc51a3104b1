/// A parsed pattern, before compilation.
indirect enum PatternNode: Equatable, Sendable {
    case literal(Character)
    /// `.`: any character but a newline.
    case anyCharacter
    case characterClass(CharacterClass)
    case sequence([PatternNode])
    case alternation([PatternNode])
    /// `min` to `max` repetitions; `max == nil` is unbounded.
    case repetition(PatternNode, min: Int, max: Int?)
    /// `^` and `$`.
    case startOfInput
    case endOfInput
}

/// A set of characters: `[a-z0-9_]`, `\d`, `[^\s]`.
///
/// Ranges and literal members match a character made of a single Unicode scalar. The named
/// classes follow Swift Regex's defaults: `\d` a decimal digit, `\w` a letter, number or `_`,
/// `\s` whitespace.
///
/// Membership costs O(1) for an ASCII character (a bitmap), and O(log *r*) otherwise, for *r*
/// ranges: ``compiled()`` merges the ranges into a sorted list searched by bisection, and keeps
/// the literal characters in a set, so a class of 20,000 members costs no more per character
/// than one of 20.
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
    /// The ranges' scalar values, merged and sorted: `bounds[2i]...bounds[2i + 1]`.
    private var bounds: [UInt32] = []
    /// The literal members.
    private var literals: Set<Character> = []
    /// The named members (`\d`, `\W`, ...), checked one by one: there are at most six.
    private var named: [Member] = []
    private var isCompiled = false

    init(members: [Member], isNegated: Bool = false) {
        self.members = members
        self.isNegated = isNegated
    }

    /// The class with its lookup structures built.
    ///
    /// - Complexity: O(*k* log *k*) for *k* members.
    func compiled() -> CharacterClass {
        var result = self
        var ranges: [ClosedRange<UInt32>] = []
        for member in members {
            switch member {
            case .range(let range): ranges.append(range.lowerBound.value...range.upperBound.value)
            case .character(let character): result.literals.insert(character)
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
        result.isCompiled = true
        for code in 0..<128 where result.looksUp(Character(Unicode.Scalar(UInt8(code)))) {
            if code < 64 { result.ascii.low |= 1 << UInt64(code) } else { result.ascii.high |= 1 << UInt64(code - 64) }
        }
        return result
    }

    /// - Complexity: O(1) for ASCII; O(log *r*) otherwise.
    func contains(_ character: Character) -> Bool {
        guard isCompiled else { return members.contains { $0.matches(character) } != isNegated }
        let scalars = character.unicodeScalars
        if let scalar = scalars.first, scalar.isASCII, scalars.index(after: scalars.startIndex) == scalars.endIndex {
            return containsASCII(UInt8(scalar.value))
        }
        return looksUp(character)
    }

    /// Membership through the compiled structures, without the bitmap.
    private func looksUp(_ character: Character) -> Bool {
        let scalars = character.unicodeScalars
        let isSingle = scalars.index(after: scalars.startIndex) == scalars.endIndex
        var found = isSingle && inRanges(scalars.first!.value)
        if !found, !literals.isEmpty { found = literals.contains(character) }
        if !found { found = named.contains { $0.matches(character) } }
        return found != isNegated
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
    func matches(_ character: Character) -> Bool {
        switch self {
        case .range(let range):
            let scalars = character.unicodeScalars
            return scalars.count == 1 && range.contains(scalars.first!)
        case .character(let member): return character == member
        case .digit: return character.isDecimalDigit
        case .word: return character.isWordCharacter
        case .whitespace: return character.isWhitespace
        case .notDigit: return !character.isDecimalDigit
        case .notWord: return !character.isWordCharacter
        case .notWhitespace: return !character.isWhitespace
        }
    }
}

extension Character {
    var isDecimalDigit: Bool {
        unicodeScalars.count == 1 && unicodeScalars.first!.properties.numericType == .decimal
    }

    var isWordCharacter: Bool {
        isLetter || isNumber || self == "_"
    }
}
