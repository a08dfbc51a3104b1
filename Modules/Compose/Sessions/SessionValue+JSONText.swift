extension SessionValue {
    /// The value as compact JSON text, keys sorted, `/` not escaped: what `JSONEncoder` writes with
    /// `[.sortedKeys, .withoutEscapingSlashes]`, without going through it (a recorder writes a
    /// line per input). `SessionFileTests.theTextAgreesWithJSONEncoder` checks the two agree.
    var jsonText: String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(256)
        write(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    private func write(to bytes: inout [UInt8]) {
        switch self {
        case .null: bytes += "null".utf8
        case .bool(let bool): bytes += (bool ? "true" : "false").utf8
        case .integer(let integer): bytes += String(integer).utf8
        case .number(let number): bytes += Self.text(of: number).utf8
        case .string(let string): Self.write(string, to: &bytes)
        case .array(let elements):
            bytes.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                element.write(to: &bytes)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let members):
            bytes.append(UInt8(ascii: "{"))
            for (index, member) in members.sorted(by: { $0.key < $1.key }).enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                Self.write(member.key, to: &bytes)
                bytes.append(UInt8(ascii: ":"))
                member.value.write(to: &bytes)
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    /// A finite number as JSON writes it: `1.5`, `1e-07`, `1e+20`; an integral one without `.0`.
    private static func text(of number: Double) -> String {
        if number.rounded() == number, abs(number) < 1e15 { return String(Int64(number)) }
        return number.description
    }

    /// `string` in quotes, with `"`, `\` and control characters escaped; every other byte of its
    /// UTF-8 as it is.
    private static func write(_ string: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes += #"\""#.utf8
            case UInt8(ascii: "\\"): bytes += #"\\"#.utf8
            case UInt8(ascii: "\n"): bytes += #"\n"#.utf8
            case UInt8(ascii: "\r"): bytes += #"\r"#.utf8
            case UInt8(ascii: "\t"): bytes += #"\t"#.utf8
            case 0x08: bytes += #"\b"#.utf8
            case 0x0C: bytes += #"\f"#.utf8
            case 0..<0x20:
                let digits = Array("0123456789abcdef".utf8)
                bytes += #"\u00"#.utf8
                bytes.append(digits[Int(byte >> 4)])
                bytes.append(digits[Int(byte & 0xF)])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
