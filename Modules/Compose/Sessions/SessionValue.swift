import Foundation

/// A JSON value: how a session recording holds what it encodes with `Codable` (a sent value, a
/// store's state, a service's result), so a recording can be read, compared and shown without the
/// app's types.
public enum SessionValue: Sendable, Hashable, Codable, CustomStringConvertible {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number written without a fraction or exponent that fits an `Int64`.
    case integer(Int64)
    /// Any other number.
    case number(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([SessionValue])
    /// An object, by member name.
    case object([String: SessionValue])

    /// The encoding of `value` with `JSONEncoder`, as a recording writes it: with
    /// `CodingUserInfoKey.composeSessionRecording` set, so ``Redacted`` fields encode as
    /// `"<redacted>"`.
    ///
    /// - Throws: What encoding `value` throws.
    public init(encoding value: some Encodable) throws {
        try self.init(encoding: value, redacting: true)
    }

    /// The encoding of `value`, with ``Redacted`` fields written as `"<redacted>"` or not.
    init(encoding value: some Encodable, redacting: Bool) throws {
        var encoder = SessionValueEncoder()
        if redacting { encoder.userInfo[.composeSessionRecording] = true }
        self = try encoder.encode(value)
    }

    /// Decodes a `T` from this value with `JSONDecoder`, as a replay does: with
    /// `CodingUserInfoKey.composeSessionRecording` set, so a ``Redacted`` field written as
    /// `"<redacted>"` throws rather than decode.
    public func decode<T: Decodable>(as type: T.Type = T.self) throws -> T {
        let decoder = JSONDecoder()
        decoder.userInfo[.composeSessionRecording] = true
        return try decoder.decode(T.self, from: jsonData(pretty: false))
    }

    /// Whether a `"<redacted>"` is anywhere in it.
    var holdsRedactedValues: Bool {
        switch self {
        case .string(let text): text == Redacted<String>.placeholder
        case .array(let elements): elements.contains(where: \.holdsRedactedValues)
        case .object(let members): members.values.contains(where: \.holdsRedactedValues)
        default: false
        }
    }

    /// This value with each `"<redacted>"` in it replaced by `replacement`.
    package func replacingRedacted(with replacement: SessionValue) -> SessionValue {
        switch self {
        case .string(let text) where text == Redacted<String>.placeholder: replacement
        case .array(let elements): .array(elements.map { $0.replacingRedacted(with: replacement) })
        case .object(let members): .object(members.mapValues { $0.replacingRedacted(with: replacement) })
        default: self
        }
    }

    /// This value with each `"<redacted>"` in it replaced by what `other` holds at the same
    /// place, where it holds something.
    func fillingRedacted(from other: SessionValue) -> SessionValue {
        switch (self, other) {
        case (.string(let text), _) where text == Redacted<String>.placeholder:
            return other
        case (.object(let members), .object(let others)):
            return .object(
                members.reduce(into: [:]) { $0[$1.key] = others[$1.key].map($1.value.fillingRedacted(from:)) ?? $1.value })
        case (.array(let elements), .array(let others)):
            return .array(elements.enumerated().map { $1.fillingRedacted(from: $0 < others.count ? others[$0] : .null) })
        default:
            return self
        }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let bool = try? container.decode(Bool.self) {
            self = .bool(bool)
        } else if let integer = try? container.decode(Int64.self) {
            self = .integer(integer)
        } else if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else if let string = try? container.decode(String.self) {
            self = .string(string)
        } else if let array = try? container.decode([SessionValue].self) {
            self = .array(array)
        } else {
            self = .object(try container.decode([String: SessionValue].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let bool): try container.encode(bool)
        case .integer(let integer): try container.encode(integer)
        case .number(let number): try container.encode(number)
        case .string(let string): try container.encode(string)
        case .array(let array): try container.encode(array)
        case .object(let object): try container.encode(object)
        }
    }

    /// The value as JSON, keys sorted.
    public func jsonData(pretty: Bool) -> Data {
        guard pretty else { return Data(jsonText.utf8) }
        let encoder = JSONEncoder()
        encoder.outputFormatting =
            pretty ? [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        // A `SessionValue` holds only what JSON can say: encoding it cannot fail.
        return (try? encoder.encode(self)) ?? Data("null".utf8)
    }

    /// The value as compact JSON, keys sorted: `{"title":"Milk"}`.
    public var description: String {
        jsonText
    }

    /// The value as indented JSON, keys sorted, one member per line: what a diff compares.
    public var prettyDescription: String {
        String(decoding: jsonData(pretty: true), as: UTF8.self)
    }
}
