/// Parses the pattern syntax ``Pattern`` accepts into a ``PatternNode``.
///
/// Recursive descent over characters: alternation, then sequence, then repetition, then atom.
/// Each construct it does not support is rejected with an error that names it, so a pattern is
/// never silently read differently from Swift Regex.
struct PatternParser {
    /// Bounded repetitions are expanded when compiled; past this count the program would be
    /// enormous for no practical pattern.
    static let maximumRepetition = 1_000

    private let characters: [Character]
    private var position = 0

    init(_ source: String) {
        characters = Array(source)
    }

    static func parse(_ source: String) throws(PatternError) -> PatternNode {
        var parser = PatternParser(source)
        let node = try parser.alternation()
        if parser.position < parser.characters.count {
            throw parser.error("unexpected ')'")
        }
        return node
    }

    private var current: Character? {
        position < characters.count ? characters[position] : nil
    }

    private func error(_ reason: String) -> PatternError {
        PatternError(reason: reason, offset: position)
    }

    private mutating func alternation() throws(PatternError) -> PatternNode {
        var branches = [try sequence()]
        while current == "|" {
            position += 1
            branches.append(try sequence())
        }
        return branches.count == 1 ? branches[0] : .alternation(branches)
    }

    private mutating func sequence() throws(PatternError) -> PatternNode {
        var items: [PatternNode] = []
        while let character = current, character != "|", character != ")" {
            items.append(try repetition())
        }
        return items.count == 1 ? items[0] : .sequence(items)
    }

    private mutating func repetition() throws(PatternError) -> PatternNode {
        let atom = try self.atom()
        var node = atom
        while let character = current {
            let bounds: (Int, Int?)
            switch character {
            case "*": bounds = (0, nil); position += 1
            case "+": bounds = (1, nil); position += 1
            case "?": bounds = (0, 1); position += 1
            case "{":
                guard let braced = try bracedBounds() else { return node }
                bounds = braced
            default: return node
            }
            if case .startOfInput = atom { throw error("an anchor cannot be repeated") }
            if case .endOfInput = atom { throw error("an anchor cannot be repeated") }
            // A lazy quantifier (`*?`) matches the same strings; a possessive one (`*+`) does not,
            // so it is refused rather than read differently.
            if current == "?" {
                position += 1
            } else if current == "+" {
                throw error("possessive quantifiers are not supported")
            }
            node = .repetition(node, min: bounds.0, max: bounds.1)
        }
        return node
    }

    /// `{n}`, `{n,}`, `{n,m}`; `nil` (and no characters consumed) if the brace is a literal.
    private mutating func bracedBounds() throws(PatternError) -> (Int, Int?)? {
        let start = position
        position += 1
        func number() -> Int? {
            var digits = ""
            while let character = current, character.isASCII, character.isNumber {
                digits.append(character)
                position += 1
            }
            return digits.isEmpty ? nil : Int(digits)
        }
        guard let minimum = number() else {
            position = start
            return nil
        }
        var maximum: Int? = minimum
        if current == "," {
            position += 1
            maximum = number()
        }
        guard current == "}" else {
            position = start
            return nil
        }
        position += 1
        if let maximum, maximum < minimum { throw error("{\(minimum),\(maximum)} has its bounds reversed") }
        if minimum > Self.maximumRepetition || (maximum ?? 0) > Self.maximumRepetition {
            throw error("repetition counts above \(Self.maximumRepetition) are not supported")
        }
        return (minimum, maximum)
    }

    private mutating func atom() throws(PatternError) -> PatternNode {
        guard let character = current else { throw error("the pattern ends where an item was expected") }
        switch character {
        case "(":
            position += 1
            if current == "?" {
                guard position + 1 < characters.count, characters[position + 1] == ":" else {
                    throw error("lookarounds, named groups and inline options are not supported")
                }
                position += 2
            }
            let inner = try alternation()
            guard current == ")" else { throw error("a group is not closed") }
            position += 1
            return inner
        case "[":
            return .characterClass(try characterClass())
        case ".":
            position += 1
            return .anyCharacter
        case "^":
            position += 1
            return .startOfInput
        case "$":
            position += 1
            return .endOfInput
        case "\\":
            position += 1
            return try escape(inClass: false)
        case "*", "+", "?":
            throw error("'\(character)' has nothing to repeat")
        default:
            position += 1
            return .literal(character)
        }
    }

    private mutating func escape(inClass: Bool) throws(PatternError) -> PatternNode {
        guard let character = current else { throw error("the pattern ends after '\\'") }
        position += 1
        switch character {
        case "d": return .characterClass(CharacterClass(members: [.digit]))
        case "D": return .characterClass(CharacterClass(members: [.notDigit]))
        case "w": return .characterClass(CharacterClass(members: [.word]))
        case "W": return .characterClass(CharacterClass(members: [.notWord]))
        case "s": return .characterClass(CharacterClass(members: [.whitespace]))
        case "S": return .characterClass(CharacterClass(members: [.notWhitespace]))
        case "n": return .literal("\n")
        case "t": return .literal("\t")
        case "r": return .literal("\r")
        case "b", "B", "A", "z", "Z", "G":
            throw error("the anchor '\\\(character)' is not supported")
        case "p", "P", "u", "x", "N", "k":
            throw error("'\\\(character)' is not supported")
        default:
            if character.isASCII, character.isNumber {
                throw error("backreferences are not supported")
            }
            if character.isASCII, character.isLetter {
                throw error("'\\\(character)' is not a known escape")
            }
            return .literal(character)
        }
    }

    private mutating func characterClass() throws(PatternError) -> CharacterClass {
        position += 1  // "["
        var result = CharacterClass(members: [])
        if current == "^" {
            result.isNegated = true
            position += 1
        }
        var first = true
        while true {
            guard let character = current else { throw error("a character class is not closed") }
            if character == "]", !first {
                position += 1
                return result
            }
            first = false
            let member: CharacterClass.Member
            if character == "\\" {
                position += 1
                switch try escape(inClass: true) {
                case .characterClass(let named): result.members += named.members; continue
                case .literal(let literal): member = .character(literal)
                default: throw error("unexpected escape in a character class")
                }
            } else {
                position += 1
                member = .character(character)
            }
            // A range `a-z`, unless the '-' is the class's last character.
            if case .character(let lower) = member, current == "-",
                position + 1 < characters.count, characters[position + 1] != "]"
            {
                position += 1
                var upper = characters[position]
                position += 1
                if upper == "\\" {
                    guard case .literal(let escaped) = try escape(inClass: true) else {
                        throw error("a range cannot end with a character class")
                    }
                    upper = escaped
                }
                guard lower.unicodeScalars.count == 1, upper.unicodeScalars.count == 1 else {
                    throw error("a range's ends must be single Unicode scalars")
                }
                let from = lower.unicodeScalars.first!, to = upper.unicodeScalars.first!
                guard from <= to else { throw error("the range \(lower)-\(upper) is reversed") }
                result.members.append(.range(from...to))
            } else {
                result.members.append(member)
            }
        }
    }
}

/// Why a pattern could not be read, and where.
public struct PatternError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong.
    public let reason: String
    /// The offset, in characters, where it was found.
    public let offset: Int

    public var description: String {
        "invalid pattern at character \(offset): \(reason)"
    }
}
