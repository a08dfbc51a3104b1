extension Rule where Value: StringProtocol {
    /// The value is an email address, as people type them.
    ///
    /// Accepted: `local@domain`, where
    /// - the local part is 1 to 64 characters among letters, digits, the backtick and `!#$%&'*+-/=?^_{|}~`,
    ///   with dots between them (not first, not last, not two in a row); plus tags
    ///   (`jill+news@example.com`) and mixed case are fine;
    /// - the domain is up to 253 characters of at least two labels separated by dots; each label is
    ///   1 to 63 letters, digits or hyphens, not starting or ending with a hyphen; the last label
    ///   (the top-level domain) has at least two characters and is not all digits;
    /// - the whole address is at most 254 characters.
    ///
    /// International domain names are accepted in their ASCII form (`xn--bcher-kva.example`);
    /// convert `bücher.example` with IDNA before validating.
    ///
    /// Rejected, as the usual mistakes: no `@` or several, an empty local part or domain, spaces,
    /// a dot at either end of the local part or two in a row, a domain without a dot, ending with a
    /// dot, with an empty label, an underscore, a comma or a hyphen at a label's end, a one-letter
    /// or numeric top-level domain. Also rejected, though RFC 5321 allows them: quoted local parts
    /// (`"john doe"@example.com`), IP-address domains (`user@[192.168.0.1]`), single-label domains
    /// (`user@localhost`) and non-ASCII local parts.
    ///
    /// - Complexity: O(*n*), one pass over the UTF-8 bytes; a value longer than 254 bytes is
    ///   rejected in O(1).
    @inlinable
    public static var email: Rule {
        Rule("email", requirement: "must be an email address") { isEmailAddress($0) }
    }
}

/// The grammar ``Rule/email`` documents, in one pass over UTF-8 bytes.
@inlinable
func isEmailAddress<Text: StringProtocol>(_ value: Text) -> Bool {
    let bytes = value.utf8
    guard bytes.count <= 254 else { return false }
    var lastAt: Text.UTF8View.Index?
    for index in bytes.indices where bytes[index] == UInt8(ascii: "@") { lastAt = index }
    guard let at = lastAt else { return false }
    let local = bytes[..<at]
    let domain = bytes[bytes.index(after: at)...]
    return isLocalPart(local) && isDomain(domain)
}

@inlinable
func isLocalPart(_ bytes: some Collection<UInt8>) -> Bool {
    guard (1...64).contains(bytes.count) else { return false }
    var previousWasDot = true  // a dot may not come first
    for byte in bytes {
        if byte == UInt8(ascii: ".") {
            if previousWasDot { return false }
            previousWasDot = true
        } else if isAtext(byte) {
            previousWasDot = false
        } else {
            return false  // '@', spaces, quotes, non-ASCII, ...
        }
    }
    return !previousWasDot  // nor last
}

/// RFC 5322's `atext`: letters, digits and ``!#$%&'*+-/=?^_`{|}~``.
@inlinable
func isAtext(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"):
        return true
    default:
        return "!#$%&'*+-/=?^_`{|}~".utf8.contains(byte)
    }
}

@inlinable
func isDomain(_ bytes: some Collection<UInt8>) -> Bool {
    guard (1...253).contains(bytes.count) else { return false }
    var labels = 0
    var labelLength = 0
    var labelFirst: UInt8 = 0
    var labelLast: UInt8 = 0
    var labelIsNumeric = true
    var labelHasLetter = false

    @inline(__always)
    func labelIsValid() -> Bool {
        (1...63).contains(labelLength) && labelFirst != UInt8(ascii: "-") && labelLast != UInt8(ascii: "-")
    }

    for byte in bytes {
        if byte == UInt8(ascii: ".") {
            guard labelIsValid() else { return false }
            labels += 1
            labelLength = 0
            labelIsNumeric = true
            labelHasLetter = false
            continue
        }
        let isLetter = (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
        let isDigit = (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        guard isLetter || isDigit || byte == UInt8(ascii: "-") else { return false }
        if labelLength == 0 { labelFirst = byte }
        labelLast = byte
        labelLength += 1
        if !isDigit { labelIsNumeric = false }
        if isLetter { labelHasLetter = true }
    }
    // The top-level domain: a valid label of two or more characters, not all digits, with a
    // letter (which also covers the `xn--` form of an international one).
    guard labelIsValid(), labelLength >= 2, !labelIsNumeric, labelHasLetter else { return false }
    return labels >= 1
}
