import ComposeStore

extension Ref: Codable {
    /// Encodes the value, or `nil` for an empty `@Ref`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let entry {
            try container.encode(entry.value)
        } else {
            try container.encodeNil()
        }
    }

    /// Decodes a value and writes it to its entity, live or new (a restored state rejoins the
    /// running program's entities); `nil` decodes an empty `@Ref`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self.init()
        } else {
            self.init(entry: RefRegistry.entry(for: try container.decode(Value.self), joining: .write))
        }
    }
}
