import Foundation

extension CodingUserInfoKey {
    /// Set (to `true`) in the `userInfo` of the encoders and decoders of session recordings:
    /// ``Redacted`` values encode as `"<redacted>"` there, and refuse to decode from it.
    public static let composeSessionRecording = CodingUserInfoKey(rawValue: "composeSessionRecording")!
}

/// A private value in a state (a password, a token): a session recording writes
/// `"<redacted>"` instead of it, and descriptions and dumps show `<redacted>`.
///
/// ```swift
/// struct State: AnyState, Codable {
///     var email = ""
///     @Redacted var password = ""
/// }
/// ```
///
/// Everywhere else it encodes and decodes as the value itself, so a store persisted with
/// `Codable` keeps it. A recording's checkpoints compare redacted fields as equal whatever they
/// hold, and a replay that sets a store to a recorded state keeps the field's value as it is.
/// Mark an emitter's values private with `ValueEmitter(redacted: true)`.
@propertyWrapper
public struct Redacted<Value> {
    /// What a recording writes instead of the value.
    public static var placeholder: String { "<redacted>" }

    /// The private value itself.
    public var wrappedValue: Value

    /// Holds `wrappedValue` as a private value.
    public init(wrappedValue: Value) {
        self.wrappedValue = wrappedValue
    }
}

extension Redacted: Sendable where Value: Sendable {}
extension Redacted: Equatable where Value: Equatable {}
extension Redacted: Hashable where Value: Hashable {}

extension Redacted: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String { Self.placeholder }
    public var debugDescription: String { Self.placeholder }
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}

extension Redacted: Encodable where Value: Encodable {
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if encoder.userInfo[.composeSessionRecording] as? Bool == true {
            try container.encode(Self.placeholder)
        } else {
            try container.encode(wrappedValue)
        }
    }
}

extension Redacted: Decodable where Value: Decodable {
    /// Decodes the value. A decoder reading a session recording (its `userInfo` has
    /// `CodingUserInfoKey.composeSessionRecording`) refuses `"<redacted>"` with a
    /// `DecodingError` saying the value was redacted: the value is not in the recording.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if decoder.userInfo[.composeSessionRecording] as? Bool == true,
            let text = try? container.decode(String.self), text == Self.placeholder
        {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "The value was redacted by a session recording: it is not in the recording")
        }
        wrappedValue = try container.decode(Value.self)
    }
}
