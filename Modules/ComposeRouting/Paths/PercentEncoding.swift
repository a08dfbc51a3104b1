/// Percent-encoding of path segment names and parameters (RFC 3986): letters, digits and
/// `-._~` stay as they are, every other byte of the UTF-8 form becomes `%XX`.
enum PercentEncoding {
    /// Whether `byte` stays as it is.
    static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
            UInt8(ascii: "_"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }

    static func encode(_ text: String) -> String {
        let utf8 = text.utf8
        if utf8.allSatisfy(isUnreserved) { return text }
        let hex = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count * 3)
        for byte in utf8 {
            if isUnreserved(byte) {
                bytes.append(byte)
            } else {
                bytes.append(UInt8(ascii: "%"))
                bytes.append(hex[Int(byte >> 4)])
                bytes.append(hex[Int(byte & 0xF)])
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    enum DecodingError: Error {
        /// A `%` not followed by two hexadecimal digits; the offending text.
        case malformed(String)
        case invalidUTF8
    }

    /// Decodes `bytes`.
    ///
    /// - Complexity: O(*n*), one allocation at most.
    static func decode(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) throws(DecodingError) -> String {
        guard bytes.contains(UInt8(ascii: "%")) else {
            guard let text = String(validating: bytes, as: UTF8.self) else { throw .invalidUTF8 }
            return text
        }
        var decoded: [UInt8] = []
        decoded.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            guard byte == UInt8(ascii: "%") else {
                decoded.append(byte)
                index += 1
                continue
            }
            guard index + 2 < bytes.endIndex,
                let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2])
            else {
                let end = min(index + 3, bytes.endIndex)
                throw .malformed(String(decoding: bytes[index..<end], as: UTF8.self))
            }
            decoded.append(high << 4 | low)
            index += 3
        }
        guard let text = String(validating: decoded, as: UTF8.self) else { throw .invalidUTF8 }
        return text
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
