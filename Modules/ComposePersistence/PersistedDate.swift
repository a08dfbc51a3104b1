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
enum PersistedDate {
    /// The text or number a save writes for `date`.
    static func encode(_ date: Date, to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let text = text(for: date), self.date(from: text) == date {
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

    /// ISO 8601 text for `date`, or `nil` if the format cannot hold it.
    static func text(for date: Date) -> String? {
        let seconds = date.timeIntervalSinceReferenceDate
        guard seconds.isFinite else { return nil }
        let whole = seconds.rounded(.down)
        let text = Date(timeIntervalSinceReferenceDate: whole).formatted(.iso8601)
        let fraction = seconds - whole
        guard fraction != 0 else { return text }
        guard text.hasSuffix("Z") else { return nil }
        return text.dropLast() + fractionDigits(fraction) + "Z"
    }

    /// The date ISO 8601 `text` names, with any fraction of a second, or `nil`.
    static func date(from text: String) -> Date? {
        // Split off a fraction of the seconds (".123…", before the zone designator) and add it
        // back after parsing the whole seconds.
        guard let dot = text.firstIndex(of: ".") else {
            return try? Date(text, strategy: .iso8601)
        }
        let digits = text[text.index(after: dot)...].prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, let fraction = Double("0." + digits) else { return nil }
        let rest = text[..<dot] + text[digits.endIndex...]
        guard let whole = try? Date(String(rest), strategy: .iso8601) else { return nil }
        return Date(timeIntervalSinceReferenceDate: whole.timeIntervalSinceReferenceDate + fraction)
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
}
