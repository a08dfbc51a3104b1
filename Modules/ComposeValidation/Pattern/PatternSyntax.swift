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
    private var isCompiled = false

    init(members: [Member], isNegated: Bool = false) {
        self.members = members
        self.isNegated = isNegated
    }

    /// The class with its ASCII bitmap computed.
    func compiled() -> CharacterClass {
        var result = self
        for code in 0..<128 {
            let character = Character(Unicode.Scalar(UInt8(code)))
            if members.contains(where: { $0.matches(character) }) != isNegated {
                if code < 64 { result.ascii.low |= 1 << UInt64(code) } else { result.ascii.high |= 1 << UInt64(code - 64) }
            }
        }
        result.isCompiled = true
        return result
    }

    func contains(_ character: Character) -> Bool {
        let scalars = character.unicodeScalars
        if isCompiled, let scalar = scalars.first, scalar.isASCII, scalars.index(after: scalars.startIndex) == scalars.endIndex {
            let code = UInt64(scalar.value)
            return code < 64 ? ascii.low & (1 << code) != 0 : ascii.high & (1 << (code - 64)) != 0
        }
        return members.contains { $0.matches(character) } != isNegated
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
