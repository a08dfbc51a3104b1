/// Parses the pattern syntax ``Pattern`` accepts into a ``PatternNode``.
///
/// Recursive descent over characters (as Swift Regex's parser reads them, so "[" followed by a
/// combining mark is one character, not a bracket): alternation, then sequence, then
/// repetition, then atom. Each construct it does not support, and each that Regex refuses or
/// reads one way or another depending on how it compiles it, is rejected with an error that
/// names it, so a pattern is never silently read differently from Swift Regex (``Pattern``
/// lists them).
///
/// Groups and quantifiers nest at most ``maximumNesting`` deep: the parser, the compiler and the
/// tree itself recurse once per level, and a pattern of thousands of nested groups would
/// otherwise overflow the stack (on a thread with a small stack, sooner).
struct PatternParser {
    /// Bounded repetitions are expanded when compiled; past this count the program would be
    /// enormous for no practical pattern.
    static let maximumRepetition = 1_000

    /// The deepest nesting of groups and quantifiers accepted (`((a))` is 2, `(a+)*` is 3).
    static let maximumNesting = 16

    /// A parsed item, and how deeply groups and quantifiers nest in it.
    private typealias Parsed = (node: PatternNode, nesting: Int)

    let characters: [Character]
    var position = 0

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

    var current: Character? {
        position < characters.count ? characters[position] : nil
    }

    func error(_ reason: String) -> PatternError {
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
        var lastIsBare = false
        while let character = current, character != "|", character != ")" {
            let item = try repetition(groupDepth: groupDepth)
            nesting = max(nesting, item.nesting)
            // `\r\n` is one Character, as CR LF is in the value: Swift Regex matches "\r\n" with it.
            // Only bare literals merge: Regex reads `(\r)(\n)` as CR then LF, which CR LF is not.
            let isBare = item.nesting == 0
            if isBare, lastIsBare, case .literal("\n") = item.node, case .literal("\r")? = items.last {
                items[items.count - 1] = .literal("\r\n")
                lastIsBare = false
                continue
            }
            items.append(item.node)
            lastIsBare = isBare
        }
        return (items.count == 1 ? items[0] : .sequence(items), nesting)
    }

    private mutating func repetition(groupDepth: Int) throws(PatternError) -> Parsed {
        let atom = try self.atom(groupDepth: groupDepth)
        guard let bounds = try quantifier() else { return atom }
        if case .startOfInput = atom.node { throw error("an anchor cannot be repeated") }
        if case .endOfInput = atom.node { throw error("an anchor cannot be repeated") }
        // A lazy quantifier (`*?`) matches the same strings; a possessive one (`*+`) does not,
        // so it is refused rather than read differently.
        if current == "?" {
            position += 1
        } else if current == "+" {
            throw error("possessive quantifiers are not supported")
        }
        // Swift Regex refuses `a**` and `a{2}{3}`.
        let next = position
        if try quantifier() != nil {
            position = next
            throw error("a quantifier cannot follow another; group the repeated item: (?:...)")
        }
        guard atom.nesting + 1 <= Self.maximumNesting else { throw tooDeep }
        return (.repetition(atom.node, min: bounds.0, max: bounds.1), atom.nesting + 1)
    }

    /// `*`, `+`, `?` or braced bounds, consumed; `nil` (and nothing consumed) if there is none.
    private mutating func quantifier() throws(PatternError) -> (Int, Int?)? {
        switch current {
        case "*":
            position += 1
            return (0, nil)
        case "+":
            position += 1
            return (1, nil)
        case "?":
            position += 1
            return (0, 1)
        case "{": return try bracedBounds()
        default: return nil
        }
    }

    private var tooDeep: PatternError {
        error("groups and quantifiers nest more than \(Self.maximumNesting) deep")
    }

    /// `{n}`, `{n,}`, `{n,m}` and `{,m}` (as Swift Regex reads it, `{0,m}`), with whitespace
    /// around the numbers and the comma as Regex allows (`{ 2 , 3 }`); `nil` (and no characters
    /// consumed) if the brace is a literal (`{x}`, `{,}`, `{2 3}`).
    private mutating func bracedBounds() throws(PatternError) -> (Int, Int?)? {
        let start = position
        position += 1
        skipWhitespace()
        let lower = try number()
        skipWhitespace()
        let hasComma = current == ","
        if hasComma { position += 1 }
        skipWhitespace()
        let upper = try number()
        skipWhitespace()
        let bounds: (Int, Int?)
        switch (lower, hasComma, upper) {
        case (let lower?, false, nil): bounds = (lower, lower)
        case (let lower?, true, nil): bounds = (lower, nil)
        case (nil, true, let upper?): bounds = (0, upper)
        case (let lower?, true, let upper?): bounds = (lower, upper)
        default:
            position = start
            return nil
        }
        guard current == "}" else {
            position = start
            return nil
        }
        position += 1
        if let maximum = bounds.1, maximum < bounds.0 { throw error("{\(bounds.0),\(maximum)} has its bounds reversed") }
        return bounds
    }

    /// Whitespace that Swift Regex skips inside braced bounds: Pattern_White_Space (space, tab,
    /// line breaks), judged by a character's first scalar as Regex judges it.
    private mutating func skipWhitespace() {
        while let character = current, character.unicodeScalars.first!.properties.isPatternWhitespace {
            position += 1
        }
    }

    /// A repetition count. Swift Regex reads every character that is a number as part of it and
    /// refuses those that are not 0-9 ("²", "٣"), so they are refused here too.
    private mutating func number() throws(PatternError) -> Int? {
        var value = 0
        var digits = 0
        while let character = current, character.isNumber {
            guard let scalar = character.asciiScalar, (0x30...0x39).contains(scalar) else {
                throw error("repetition counts are written with the digits 0-9, not '\(character)'")
            }
            value = min(value * 10 + Int(scalar - 0x30), Self.maximumRepetition + 1)
            digits += 1
            position += 1
        }
        guard digits > 0 else { return nil }
        guard value <= Self.maximumRepetition else {
            throw error("repetition counts above \(Self.maximumRepetition) are not supported")
        }
        return value
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
        case "{":
            // Swift Regex refuses a braced quantifier with nothing before it (`{2}`); any other
            // brace is a literal.
            if try bracedBounds() != nil { throw error("'{' has nothing to repeat") }
            position += 1
            return (.literal(character), 0)
        default:
            try refuseIfConfusable(character)
            position += 1
            return (.literal(character), 0)
        }
    }

    /// Swift Regex refuses an ASCII symbol with combining marks as a literal ("[" followed by a
    /// combining acute looks like `[` but is not one), and so does a `Pattern`.
    func refuseIfConfusable(_ character: Character) throws(PatternError) {
        if character.isConfusable {
            throw error("'\(character)' is an ASCII symbol with a combining mark, which Swift Regex refuses as a literal")
        }
    }

    mutating func escape(inClass: Bool) throws(PatternError) -> PatternNode {
        guard let character = current else { throw error("the pattern ends after '\\'") }
        // Swift Regex escapes one ASCII character: `\é`, and `\d` with a combining mark, are
        // refused.
        guard character.asciiScalar != nil else { throw error("'\\\(character)' is not a known escape") }
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
