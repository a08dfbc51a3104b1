@_spi(_Unicode) import Swift

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

extension Character {
    /// The character's scalar if it is one ASCII scalar. Unlike `asciiValue`, `nil` for CR LF.
    var asciiScalar: UInt8? {
        let scalars = unicodeScalars
        guard let first = scalars.first, first.isASCII, scalars.index(after: scalars.startIndex) == scalars.endIndex else {
            return nil
        }
        return UInt8(first.value)
    }

    /// The one scalar of the character's NFC form, or `nil` if NFC has several: what Regex
    /// compares with a range (`[à-ÿ]` matches "e" followed by a combining acute).
    ///
    /// A lone scalar is its own NFC form unless it is a full composition exclusion (the Kelvin
    /// sign, U+212A, is "K"); only those and characters of several scalars are normalized, with
    /// the standard library's own NFC, the one Regex uses.
    var singleNFCScalar: Unicode.Scalar? {
        let scalars = unicodeScalars
        if let first = scalars.first, scalars.index(after: scalars.startIndex) == scalars.endIndex,
            !first.properties.isFullCompositionExclusion
        {
            return first
        }
        // One scalar decomposes into four at most, and a longer character has a longer NFD
        // form: it has no NFC form of one scalar, and normalizing it would cost time quadratic
        // in its length.
        guard hasAtMost(4) else { return nil }
        var normalized = StandardLibraryNFC.scalars(of: self).makeIterator()
        guard let scalar = normalized.next(), normalized.next() == nil else { return nil }
        return scalar
    }

    /// Whether the character is CR LF, in O(1) (`==` would normalize a long character).
    var isCRLF: Bool {
        let scalars = unicodeScalars
        return scalars.first == "\r" && scalars.dropFirst().first == "\n" && hasAtMost(2)
    }

    /// Whether the character has at most `count` scalars, in O(`count`).
    func hasAtMost(_ count: Int) -> Bool {
        unicodeScalars.dropFirst(count).isEmpty
    }

    /// Whether the character may be canonically equivalent to `other`, which it is not if it is
    /// more than four times longer (a scalar decomposes into four at most). Checked before
    /// comparing, which normalizes both and costs time quadratic in their lengths.
    func mayBeEquivalent(to other: Character) -> Bool {
        hasAtMost(4 * other.unicodeScalars.count)
    }

    /// Whether Swift Regex refuses the character as a literal: an ASCII symbol with combining
    /// marks, such as "[" followed by a combining acute, which looks like a metacharacter but is
    /// not one.
    var isConfusable: Bool {
        let scalars = unicodeScalars
        return scalars.count > 1 && scalars.first!.isASCII && !isCRLF && !isLetter && !isNumber
    }

    /// `\w`, as Swift Regex reads it.
    var isWordCharacter: Bool {
        isLetter || isNumber || self == "_"
    }
}

extension Unicode.Scalar {
    /// The scalar in NFC, for error messages: the Kelvin sign, U+212A, is "K".
    var nfcForm: String {
        var form = ""
        form.unicodeScalars.append(contentsOf: StandardLibraryNFC.scalars(of: Character(self)))
        return form
    }
}

/// The standard library's NFC normalization, the one Swift `Regex` compares characters with: the
/// one place Compose uses it.
///
/// It is an SPI of the standard library (`@_spi(_Unicode)`, `String._nfc`), not public API; the
/// standard library's own `Regex` is built on it, and Foundation's
/// `precomposedStringWithCanonicalMapping` is not available here (ComposeValidation stands on the
/// standard library alone). `PatternRegexTests.theStandardLibrarysNFCIsNFC` pins down what it
/// returns, and every agreement test with `Regex` would fail if the two drifted apart.
enum StandardLibraryNFC {
    /// The scalars of `character` in Unicode normalization form C.
    static func scalars(of character: Character) -> [Unicode.Scalar] {
        Array(String(character)._nfc)
    }
}
