import Foundation

/// What a save contains, as human-readable JSON:
///
/// ```json
/// {
///   "compose" : 1,
///   "version" : 1,
///   "savedAt" : "2026-11-21T10:00:00Z",
///   "state" : { "email" : "jill@example.com" }
/// }
/// ```
///
/// - `compose`: the version of this format, so a later Compose can read older saves and refuse
///   newer ones clearly.
/// - `version`: the state's own version (``MigratableState/persistenceVersion``), so a save made
///   with an older state shape can be migrated.
struct Envelope<State: Codable>: Codable {
    static var formatVersion: Int { 1 }

    var compose: Int
    var version: Int
    var savedAt: Date
    var state: State

    /// Thrown while decoding when the save's versions are not the current ones, before the state
    /// itself is decoded: one parse for a current save, and a migration otherwise.
    struct VersionMismatch: Error {
        let formatVersion: Int
        let version: Int
    }

    private enum CodingKeys: String, CodingKey {
        case compose, version, savedAt, state
    }

    init(state: State, version: Int, savedAt: Date = Date()) {
        self.compose = Self.formatVersion
        self.version = version
        self.savedAt = savedAt
        self.state = state
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        compose = try container.decode(Int.self, forKey: .compose)
        version = try container.decode(Int.self, forKey: .version)
        let expected = (decoder.userInfo[.expectedStateVersion] as? Int) ?? 1
        guard compose == Self.formatVersion, version == expected else {
            throw VersionMismatch(formatVersion: compose, version: version)
        }
        savedAt = try container.decode(Date.self, forKey: .savedAt)
        state = try container.decode(State.self, forKey: .state)
    }

    static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        // Pretty-printed to be read by people. Keys come in declaration order (synthesized Codable),
        // which is stable from save to save: sorting them would only cost time.
        encoder.outputFormatting = [.prettyPrinted, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom(PersistedDate.encode)
        return encoder
    }

    /// A decoder for a state's JSON (a migrated state's too), with the dates a save writes.
    static func stateDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom(PersistedDate.decode)
        return decoder
    }

    static func decoder(expecting version: Int) -> JSONDecoder {
        let decoder = stateDecoder()
        decoder.userInfo[.expectedStateVersion] = version
        return decoder
    }
}

extension CodingUserInfoKey {
    static let expectedStateVersion = CodingUserInfoKey(rawValue: "compose.expectedStateVersion")!
}
