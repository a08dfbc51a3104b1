import Foundation

/// How a save writes a `Date`: as ISO 8601 text a person can read, yet exact.
///
/// JSON's usual ISO 8601 strategy keeps whole seconds, so a `Date()` saved and restored came back
/// up to a second earlier, and unequal to itself. A save writes instead:
/// - a date on a whole second as `2026-11-21T10:00:00Z`;
/// - any other date with the fraction of its second that gives back exactly the same `Date`:
///   `2026-11-21T10:00:00.123456789Z`;
/// - a date the ISO 8601 format cannot hold (years outside 1 to 9999, say) as its
///   `timeIntervalSinceReferenceDate`, a number.
///
/// Restoring accepts all three, fractions of any length and UTC offsets (`+02:00`) included.
/// Dates use the Gregorian calendar throughout, as ISO 8601 does (Foundation's formatters switch
/// to the Julian calendar before 15 October 1582, so they name older days differently).
enum PersistedDate {
    /// The text or number a save writes for `date`.
    static func encode(_ date: Date, to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let text = text(for: date) {  // exact: see `text(for:)`
            try container.encode(text)
        } else {
            try container.encode(date.timeIntervalSinceReferenceDate)
        }
    }

    /// The date a save holds.
    static func decode(from decoder: any Decoder) throws -> Date {
        let container = try decoder.singleValueContainer()
        if let seconds = try? container.decode(Double.self) {
            return Date(timeIntervalSinceReferenceDate: seconds)
        }
        let text = try container.decode(String.self)
        guard let date = date(from: text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "\"\(text)\" is not an ISO 8601 date")
        }
        return date
    }

    // Arithmetic happens in seconds since the reference date, which is how `Date` stores its
    // value: there, splitting into whole seconds and a fraction, and adding them back, is exact.
    // The calendar arithmetic is done here rather than by Foundation's ISO 8601 format style,
    // whose caches grew by some 170 KB under load in the soak (and whose parser accepts
    // "03:04:0.5"); this is a few integer operations, the same on every platform.

    /// Seconds from 1970 to the reference date (2001-01-01T00:00:00Z).
    static let referenceDateOffset = 978_307_200

    /// ISO 8601 text for `date`, or `nil` if the format cannot hold it exactly (years outside
    /// 1...9999, -0.0 seconds, or a date less than half a second before the reference date: see
    /// below).
    ///
    /// `date(from:)` gives back exactly `date`: the whole seconds are an integer, and the fraction
    /// is `seconds - whole` printed with the shortest digits that parse back to it. That
    /// subtraction, and adding the two back, are exact when `whole` is within a factor of two of
    /// `seconds`, which holds for every date but those in the half second before the reference
    /// date (`seconds` in (-0.5, 0), `whole` -1): there the text would not round-trip, and the
    /// number of seconds is written instead.
    static func text(for date: Date) -> String? {
        let seconds = date.timeIntervalSinceReferenceDate
        // -0.0 is 2001-01-01T00:00:00Z as text, which reads back as +0.0: a number keeps its sign.
        guard seconds.isFinite, abs(seconds) < 1e12, !(seconds == 0 && seconds.sign == .minus) else { return nil }
        let whole = seconds.rounded(.down)
        let unix = Int(whole) + referenceDateOffset
        let (days, secondOfDay) = floorDivision(unix, 86_400)
        let (year, month, day) = civil(fromDays: days)
        guard (1...9999).contains(year) else { return nil }
        var text = padded(year, 4) + "-" + padded(month, 2) + "-" + padded(day, 2)
        text += "T" + padded(secondOfDay / 3600, 2) + ":" + padded(secondOfDay / 60 % 60, 2) + ":" + padded(secondOfDay % 60, 2)
        let fraction = seconds - whole
        guard fraction < 1, whole + fraction == seconds else { return nil }
        return text + (fraction == 0 ? "" : fractionDigits(fraction)) + "Z"
    }

    /// The date ISO 8601 `text` names (`YYYY-MM-DDTHH:MM:SS`, an optional fraction of a second of
    /// any length, then `Z` or an offset `±HH:MM`), or `nil`.
    static func date(from text: String) -> Date? {
        var scanner = ByteScanner(Array(text.utf8))
        guard let year = scanner.number(4), scanner.skip("-"), let month = scanner.number(2), scanner.skip("-"),
            let day = scanner.number(2), scanner.skip("T") || scanner.skip("t"),
            let hour = scanner.number(2), scanner.skip(":"), let minute = scanner.number(2), scanner.skip(":"),
            let second = scanner.number(2),
            (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day),
            hour < 24, minute < 60, second < 60
        else { return nil }
        var fraction = 0.0
        if scanner.skip(".") {
            let digits = scanner.digits()
            guard !digits.isEmpty, let value = Double("0." + String(decoding: digits, as: UTF8.self)) else { return nil }
            fraction = value
        }
        var offset = 0  // "Z": UTC
        if !scanner.skip("Z"), !scanner.skip("z") {
            guard let sign = scanner.sign(), let hours = scanner.number(2), scanner.skip(":"),
                let minutes = scanner.number(2), hours < 24, minutes < 60
            else { return nil }
            offset = sign * (hours * 3600 + minutes * 60)
        }
        guard scanner.isAtEnd else { return nil }
        let unix = days(fromYear: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60 + second - offset
        return Date(timeIntervalSinceReferenceDate: Double(unix - referenceDateOffset) + fraction)
    }

    /// ".ddd…": the shortest decimal digits of `fraction` (in 0 ..< 1) that parse back to it.
    static func fractionDigits(_ fraction: Double) -> String {
        // `description` is the shortest text that round-trips, sometimes in exponent form
        // ("1.5e-05"): write that out as plain digits.
        let description = fraction.description
        guard let e = description.firstIndex(of: "e") else {
            return String(description.drop { $0 != "." })  // "0.25" → ".25"
        }
        let exponent = Int(description[description.index(after: e)...]) ?? 0  // negative here
        let mantissa = description[..<e].filter { $0 != "." }  // "1.5" → "15"
        return "." + String(repeating: "0", count: -exponent - 1) + mantissa
    }

    // MARK: Calendar arithmetic (proleptic Gregorian, after Howard Hinnant's `days_from_civil`)

    /// Days from 1970-01-01 to the given date.
    static func days(fromYear year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * ((month + 9) % 12) + 2) / 5 + day - 1  // from March 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date `days` days after 1970-01-01.
    static func civil(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthFromMarch = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1
        let month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day)
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// `(quotient, remainder)` rounding towards negative infinity, so the remainder is never negative.
    static func floorDivision(_ value: Int, _ divisor: Int) -> (Int, Int) {
        let remainder = value % divisor
        return remainder < 0 ? (value / divisor - 1, remainder + divisor) : (value / divisor, remainder)
    }

    static func padded(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    /// Reads ISO 8601 text byte by byte.
    struct ByteScanner {
        let bytes: [UInt8]
        var position = 0

        init(_ bytes: [UInt8]) {
            self.bytes = bytes
        }

        var isAtEnd: Bool { position == bytes.count }

        mutating func skip(_ character: Unicode.Scalar) -> Bool {
            guard position < bytes.count, bytes[position] == UInt8(character.value) else { return false }
            position += 1
            return true
        }

        /// Exactly `count` decimal digits, as a number.
        mutating func number(_ count: Int) -> Int? {
            guard position + count <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[position..<position + count] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            position += count
            return value
        }

        /// As many decimal digits as there are.
        mutating func digits() -> ArraySlice<UInt8> {
            let start = position
            while position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) { position += 1 }
            return bytes[start..<position]
        }

        /// `+1` for "+", `-1` for "-".
        mutating func sign() -> Int? {
            if skip("+") { return 1 }
            if skip("-") { return -1 }
            return nil
        }
    }
}
