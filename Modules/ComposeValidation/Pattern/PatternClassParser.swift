extension PatternParser {
    /// A bracketed class, `[...]` or `[^...]`, as Swift Regex reads it, or an error naming what
    /// Regex refuses or reads in a way a `Pattern` does not:
    /// - `[]` and `[^]`, nested and POSIX classes (`[[:digit:]]`) and set operations (`&&`,
    ///   `--`, `~~`);
    /// - `\r` followed by `\n`: Regex merges the two into CR LF, one character, but reads
    ///   `[\r\n]+` as a repetition of CR or LF, so the class means one thing or the other
    ///   depending on what follows it;
    /// - a range whose end is a class (`[\w-z]`) or is not one scalar in NFC (`[\u{212A}-Z]`,
    ///   with the Kelvin sign).
    mutating func characterClass() throws(PatternError) -> CharacterClass {
        position += 1  // "["
        var result = CharacterClass(members: [])
        if current == "^" {
            result.isNegated = true
            position += 1
        }
        if current == "]" {
            throw error(
                "a character class cannot be empty, and Swift Regex does not read ']' first as a member; escape it as '\\]'")
        }
        // Whether the member before is a literal CR: a LF right after it is refused.
        var afterCR = false
        while true {
            guard let character = current else { throw error("a character class is not closed") }
            if character == "]" {
                position += 1
                return result
            }
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
            let member: Character
            if character == "\\" {
                position += 1
                switch try escape(inClass: true) {
                case .characterClass(let named):
                    if current == "-", position + 1 < characters.count, characters[position + 1] != "]" {
                        throw error("a range cannot start with a character class")
                    }
                    result.members += named.members
                    afterCR = false
                    continue
                case .literal(let literal): member = literal
                default: throw error("unexpected escape in a character class")
                }
            } else {
                try refuseIfConfusable(character)
                position += 1
                member = character
            }
            if afterCR, member == "\n" { throw crLFInClass }
            // A range `a-z`, unless the '-' is the class's last character.
            if current == "-", position + 1 < characters.count, characters[position + 1] != "]" {
                let range = try rangeEnding(at: member)
                result.members.append(.range(range))
                afterCR = range.upperBound == "\r"
            } else {
                result.members.append(.character(member))
                afterCR = member == "\r"
            }
        }
    }

    /// The range from `lower` to the character after the '-' at the current position.
    private mutating func rangeEnding(at lower: Character) throws(PatternError) -> ClosedRange<Unicode.Scalar> {
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
        } else {
            try refuseIfConfusable(upper)
        }
        guard lower.unicodeScalars.count == 1, upper.unicodeScalars.count == 1 else {
            throw error("a range's ends must be single Unicode scalars")
        }
        let from = lower.unicodeScalars.first!, to = upper.unicodeScalars.first!
        // Regex compares a character's NFC form with a range, and refuses ends that NFC changes.
        for end in [from, to] where end.properties.isFullCompositionExclusion {
            throw error("the range end '\(end)' is not in NFC, which Swift Regex refuses; write '\(end.nfcForm)'")
        }
        guard from <= to else { throw error("the range \(lower)-\(upper) is reversed") }
        return from...to
    }

    private var crLFInClass: PatternError {
        error(
            "'\\r' followed by '\\n' in a character class: Swift Regex reads it as CR LF, one character, but as CR or LF "
                + "when the class is repeated; write [\\n\\r] for CR or LF")
    }
}
