/// Parses the pattern syntax ``Pattern`` accepts into a ``PatternNode``.
///
/// Recursive descent over characters: alternation, then sequence, then repetition, then atom.
/// Each construct it does not support is rejected with an error that names it, so a pattern is
/// never silently read differently from Swift Regex.
///
/// Groups and quantifiers nest at most ``maximumNesting`` deep: the parser, the compiler and the
/// tree itself recurse once per level, and a pattern of thousands of nested groups would
/// otherwise overflow the stack (on a thread with a small stack, sooner).
struct PatternParser {
    /// Bounded repetitions are expanded when compiled; past this count the program would be
    /// enormous for no practical pattern.
    static let maximumRepetition = 1_000

    /// The deepest nesting of groups and quantifiers accepted (`((a))` is 2, `(a+)*` is 3).
    static let maximumNesting = 32

    /// A parsed item, and how deeply groups and quantifiers nest in it.
    private typealias Parsed = (node: PatternNode, nesting: Int)

    private let characters: [Character]
    private var position = 0

    init(_ source: String) {
        characters = Array(source)
    }

    static func parse(_ source: String) throws(PatternError) -> PatternNode {
        var parser = PatternParser(source)
        let node = try parser.alternation(groupDepth: 0).node
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

    private mutating func alternation(groupDepth: Int) throws(PatternError) -> Parsed {
        var branches = [try sequence(groupDepth: groupDepth)]
        while current == "|" {
            position += 1
            branches.append(try sequence(groupDepth: groupDepth))
        }
        let nesting = branches.map(\.nesting).max() ?? 0
        return branches.count == 1 ? branches[0] : (.alternation(branches.map(\.node)), nesting)
    }

    private mutating func sequence(groupDepth: Int) throws(PatternError) -> Parsed {
        var items: [PatternNode] = []
        var nesting = 0
        while let character = current, character != "|", character != ")" {
            let item = try repetition(groupDepth: groupDepth)
            nesting = max(nesting, item.nesting)
            // `\r\n` is one Character, as CR LF is in the value: Swift Regex matches "\r\n" with it.
            if case .literal("\n") = item.node, case .literal("\r")? = items.last {
                items[items.count - 1] = .literal("\r\n")
                continue
            }
            items.append(item.node)
        }
        return (items.count == 1 ? items[0] : .sequence(items), nesting)
    }

    private mutating func repetition(groupDepth: Int) throws(PatternError) -> Parsed {
        let atom = try self.atom(groupDepth: groupDepth)
        var node = atom.node
        var nesting = atom.nesting
        while let character = current {
            let bounds: (Int, Int?)
            switch character {
            case "*":
                bounds = (0, nil)
                position += 1
            case "+":
                bounds = (1, nil)
                position += 1
            case "?":
                bounds = (0, 1)
                position += 1
            case "{":
                guard let braced = try bracedBounds() else { return (node, nesting) }
                bounds = braced
            default: return (node, nesting)
            }
            if case .startOfInput = atom.node { throw error("an anchor cannot be repeated") }
            if case .endOfInput = atom.node { throw error("an anchor cannot be repeated") }
            // A lazy quantifier (`*?`) matches the same strings; a possessive one (`*+`) does not,
            // so it is refused rather than read differently.
            if current == "?" {
                position += 1
            } else if current == "+" {
                throw error("possessive quantifiers are not supported")
            }
            nesting += 1
            guard nesting <= Self.maximumNesting else { throw tooDeep }
            node = .repetition(node, min: bounds.0, max: bounds.1)
        }
        return (node, nesting)
    }

    private var tooDeep: PatternError {
        error("groups and quantifiers nest more than \(Self.maximumNesting) deep")
    }

    /// `{n}`, `{n,}`, `{n,m}` and `{,m}` (as Swift Regex reads it, `{0,m}`); `nil` (and no
    /// characters consumed) if the brace is a literal.
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
        let written = number()
        guard written != nil || current == "," else {
            position = start
            return nil
        }
        let minimum = written ?? 0
        var maximum: Int? = minimum
        if current == "," {
            position += 1
            maximum = number()
        }
        // `{,}` says nothing: a literal, as in Swift Regex.
        guard current == "}", written != nil || maximum != nil else {
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

    private mutating func atom(groupDepth: Int) throws(PatternError) -> Parsed {
        guard let character = current else { throw error("the pattern ends where an item was expected") }
        switch character {
        case "(":
            // Checked before recursing: the nesting is what bounds the recursion.
            guard groupDepth < Self.maximumNesting else { throw tooDeep }
            position += 1
            if current == "?" {
                guard position + 1 < characters.count, characters[position + 1] == ":" else {
                    throw error("lookarounds, named groups and inline options are not supported")
                }
                position += 2
            }
            let inner = try alternation(groupDepth: groupDepth + 1)
            guard current == ")" else { throw error("a group is not closed") }
            position += 1
            guard inner.nesting + 1 <= Self.maximumNesting else { throw tooDeep }
            return (inner.node, inner.nesting + 1)
        case "[":
            return (.characterClass(try characterClass()), 0)
        case ".":
            position += 1
            return (.anyCharacter, 0)
        case "^":
            position += 1
            return (.startOfInput, 0)
        case "$":
            position += 1
            return (.endOfInput, 0)
        case "\\":
            position += 1
            return (try escape(inClass: false), 0)
        case "*", "+", "?":
            throw error("'\(character)' has nothing to repeat")
        default:
            position += 1
            return (.literal(character), 0)
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
            // Swift Regex reads these as nested classes, POSIX classes (`[[:digit:]]`) and set
            // operations; refused rather than read as literal characters.
            if character == "[" {
                throw error("nested character classes and POSIX classes ([:digit:]) are not supported; escape '[' as '\\['")
            }
            if character == "&" || character == "-" || character == "~",
                position + 1 < characters.count, characters[position + 1] == character
            {
                throw error("character class set operations ('&&', '--', '~~') are not supported")
            }
            let member: CharacterClass.Member
            if character == "\\" {
                position += 1
                switch try escape(inClass: true) {
                case .characterClass(let named):
                    result.members += named.members
                    continue
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
                if characters[position + 1] == "-" {
                    throw error("character class set operations ('&&', '--', '~~') are not supported")
                }
                if characters[position + 1] == "[" {
                    throw error("nested character classes and POSIX classes ([:digit:]) are not supported; escape '[' as '\\['")
                }
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
