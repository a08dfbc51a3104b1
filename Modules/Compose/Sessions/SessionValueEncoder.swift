import Foundation

/// Encodes an `Encodable` value straight into a ``SessionValue``, as `JSONEncoder` followed by
/// decoding its output would, without writing or parsing text: the recorder encodes every changed
/// state at every input, and the text round trip was most of that cost.
///
/// It follows `JSONEncoder`'s defaults: `Date` as its `Double` time interval since the reference
/// date, `Data` as Base64, `URL` as its absolute string, `Decimal` as a number, a non-finite
/// floating-point number refused, and a number without a fraction that fits an `Int64` (an
/// integral `Double` included) as ``SessionValue/integer(_:)``.
/// `SessionFileTests.theEncoderAgreesWithJSONEncoder` checks the two agree.
struct SessionValueEncoder {
    var userInfo: [CodingUserInfoKey: Any] = [:]

    func encode(_ value: some Encodable) throws -> SessionValue {
        let root = Node()
        try Writer(node: root, codingPath: [], userInfo: userInfo).box(value)
        return root.value
    }

    /// A value under construction: containers are references, so a nested container and its
    /// parent build one tree.
    final class Node {
        enum Content {
            case empty
            case value(SessionValue)
            case object([String: Node])
            case array([Node])
        }

        var content = Content.empty

        var value: SessionValue {
            switch content {
            case .empty: return .object([:])
            case .value(let value): return value
            case .object(let members): return .object(members.mapValues(\.value))
            case .array(let elements): return .array(elements.map(\.value))
            }
        }
    }

    struct Writer: Encoder {
        let node: Node
        let codingPath: [any CodingKey]
        let userInfo: [CodingUserInfoKey: Any]

        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
            if case .object = node.content {} else { node.content = .object([:]) }
            return KeyedEncodingContainer(Keyed<Key>(writer: self))
        }

        func unkeyedContainer() -> any UnkeyedEncodingContainer {
            if case .array = node.content {} else { node.content = .array([]) }
            return Unkeyed(writer: self)
        }

        func singleValueContainer() -> any SingleValueEncodingContainer {
            Single(writer: self)
        }

        /// Encodes `value` into this writer's node.
        func box<Value: Encodable>(_ value: Value) throws {
            // Types compared, not cast: a cast looks up conformances, and this runs for every value.
            if Value.self == SessionValue.self {
                node.content = .value(value as! SessionValue)
            } else if Value.self == Date.self {
                node.content = .value(try Self.number((value as! Date).timeIntervalSinceReferenceDate, codingPath))
            } else if Value.self == Data.self {
                node.content = .value(.string((value as! Data).base64EncodedString()))
            } else if Value.self == URL.self {
                node.content = .value(.string((value as! URL).absoluteString))
            } else if Value.self == Decimal.self {
                node.content = .value(try Self.number(NSDecimalNumber(decimal: value as! Decimal).doubleValue, codingPath))
            } else {
                try value.encode(to: self)
            }
        }

        func child(_ key: any CodingKey) -> Writer {
            Writer(node: Node(), codingPath: codingPath + [key], userInfo: userInfo)
        }

        static func number(_ value: Double, _ codingPath: [any CodingKey]) throws -> SessionValue {
            guard value.isFinite else {
                throw EncodingError.invalidValue(
                    value, .init(codingPath: codingPath, debugDescription: "\(value) is not a JSON number"))
            }
            if value.rounded() == value, let integer = Int64(exactly: value) { return .integer(integer) }
            return .number(value)
        }

        /// A `Float` as the `Double` its shortest decimal form reads as (`1.1`, not
        /// `1.100000023841858`), which is what `JSONEncoder` writes.
        static func number(_ value: Float, _ codingPath: [any CodingKey]) throws -> SessionValue {
            guard value.isFinite else { return try number(Double(value), codingPath) }
            return try number(Double(value.description) ?? Double(value), codingPath)
        }

        func integer<T: BinaryInteger>(_ value: T) -> SessionValue {
            Int64(exactly: value).map(SessionValue.integer) ?? .number(Double(value))
        }
    }

    struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let writer: Writer
        var codingPath: [any CodingKey] { writer.codingPath }

        private func set(_ value: SessionValue, for key: Key) {
            let node = Node()
            node.content = .value(value)
            set(node, for: key)
        }

        private func set(_ node: Node, for key: Key) {
            guard case .object(var members) = writer.node.content else { return }
            writer.node.content = .empty  // one reference to `members` while it changes
            members[key.stringValue] = node
            writer.node.content = .object(members)
        }

        mutating func encodeNil(forKey key: Key) throws { set(.null, for: key) }
        mutating func encode(_ value: Bool, forKey key: Key) throws { set(.bool(value), for: key) }
        mutating func encode(_ value: String, forKey key: Key) throws { set(.string(value), for: key) }
        mutating func encode(_ value: Double, forKey key: Key) throws {
            set(try Writer.number(value, codingPath + [key]), for: key)
        }
        mutating func encode(_ value: Float, forKey key: Key) throws {
            set(try Writer.number(value, codingPath + [key]), for: key)
        }
        mutating func encode(_ value: Int, forKey key: Key) throws { set(writer.integer(value), for: key) }
        mutating func encode(_ value: Int8, forKey key: Key) throws { set(writer.integer(value), for: key) }
        mutating func encode(_ value: Int16, forKey key: Key) throws { set(writer.integer(value), for: key) }
        mutating func encode(_ value: Int32, forKey key: Key) throws { set(writer.integer(value), for: key) }
        mutating func encode(_ value: Int64, forKey key: Key) throws { set(writer.integer(value), for: key) }
        mutating func encode(_ value: UInt, forKey key: Key) throws { set(writer.integer(value), for: key) }
        mutating func encode(_ value: UInt8, forKey key: Key) throws { set(writer.integer(value), for: key) }
        mutating func encode(_ value: UInt16, forKey key: Key) throws { set(writer.integer(value), for: key) }
        mutating func encode(_ value: UInt32, forKey key: Key) throws { set(writer.integer(value), for: key) }
        mutating func encode(_ value: UInt64, forKey key: Key) throws { set(writer.integer(value), for: key) }

        mutating func encode(_ value: some Encodable, forKey key: Key) throws {
            let child = writer.child(key)
            try child.box(value)
            set(child.node, for: key)
        }

        mutating func nestedContainer<NestedKey: CodingKey>(
            keyedBy keyType: NestedKey.Type, forKey key: Key
        ) -> KeyedEncodingContainer<NestedKey> {
            let child = writer.child(key)
            set(child.node, for: key)
            return child.container(keyedBy: keyType)
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            let child = writer.child(key)
            set(child.node, for: key)
            return child.unkeyedContainer()
        }

        mutating func superEncoder() -> any Encoder {
            superEncoder(forKey: Key(stringValue: "super")!)
        }

        mutating func superEncoder(forKey key: Key) -> any Encoder {
            let child = writer.child(key)
            set(child.node, for: key)
            return child
        }
    }

    struct Unkeyed: UnkeyedEncodingContainer {
        let writer: Writer
        var codingPath: [any CodingKey] { writer.codingPath }

        var count: Int {
            guard case .array(let elements) = writer.node.content else { return 0 }
            return elements.count
        }

        private struct Index: CodingKey {
            let intValue: Int?
            var stringValue: String { "Index \(intValue ?? 0)" }
            init(_ index: Int) { intValue = index }
            init?(stringValue: String) { nil }
            init?(intValue: Int) { self.intValue = intValue }
        }

        private func append(_ node: Node) {
            guard case .array(var elements) = writer.node.content else { return }
            writer.node.content = .empty
            elements.append(node)
            writer.node.content = .array(elements)
        }

        private func append(_ value: SessionValue) {
            let node = Node()
            node.content = .value(value)
            append(node)
        }

        private func child() -> Writer {
            writer.child(Index(count))
        }

        mutating func encodeNil() throws { append(.null) }
        mutating func encode(_ value: Bool) throws { append(.bool(value)) }
        mutating func encode(_ value: String) throws { append(.string(value)) }
        mutating func encode(_ value: Double) throws { append(try Writer.number(value, codingPath + [Index(count)])) }
        mutating func encode(_ value: Float) throws { append(try Writer.number(value, codingPath + [Index(count)])) }
        mutating func encode(_ value: Int) throws { append(writer.integer(value)) }
        mutating func encode(_ value: Int8) throws { append(writer.integer(value)) }
        mutating func encode(_ value: Int16) throws { append(writer.integer(value)) }
        mutating func encode(_ value: Int32) throws { append(writer.integer(value)) }
        mutating func encode(_ value: Int64) throws { append(writer.integer(value)) }
        mutating func encode(_ value: UInt) throws { append(writer.integer(value)) }
        mutating func encode(_ value: UInt8) throws { append(writer.integer(value)) }
        mutating func encode(_ value: UInt16) throws { append(writer.integer(value)) }
        mutating func encode(_ value: UInt32) throws { append(writer.integer(value)) }
        mutating func encode(_ value: UInt64) throws { append(writer.integer(value)) }

        mutating func encode(_ value: some Encodable) throws {
            let child = child()
            try child.box(value)
            append(child.node)
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey>
        {
            let child = child()
            append(child.node)
            return child.container(keyedBy: keyType)
        }

        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            let child = child()
            append(child.node)
            return child.unkeyedContainer()
        }

        mutating func superEncoder() -> any Encoder {
            let child = child()
            append(child.node)
            return child
        }
    }

    struct Single: SingleValueEncodingContainer {
        let writer: Writer
        var codingPath: [any CodingKey] { writer.codingPath }

        private func set(_ value: SessionValue) { writer.node.content = .value(value) }

        mutating func encodeNil() throws { set(.null) }
        mutating func encode(_ value: Bool) throws { set(.bool(value)) }
        mutating func encode(_ value: String) throws { set(.string(value)) }
        mutating func encode(_ value: Double) throws { set(try Writer.number(value, codingPath)) }
        mutating func encode(_ value: Float) throws { set(try Writer.number(value, codingPath)) }
        mutating func encode(_ value: Int) throws { set(writer.integer(value)) }
        mutating func encode(_ value: Int8) throws { set(writer.integer(value)) }
        mutating func encode(_ value: Int16) throws { set(writer.integer(value)) }
        mutating func encode(_ value: Int32) throws { set(writer.integer(value)) }
        mutating func encode(_ value: Int64) throws { set(writer.integer(value)) }
        mutating func encode(_ value: UInt) throws { set(writer.integer(value)) }
        mutating func encode(_ value: UInt8) throws { set(writer.integer(value)) }
        mutating func encode(_ value: UInt16) throws { set(writer.integer(value)) }
        mutating func encode(_ value: UInt32) throws { set(writer.integer(value)) }
        mutating func encode(_ value: UInt64) throws { set(writer.integer(value)) }
        mutating func encode(_ value: some Encodable) throws { try writer.box(value) }
    }
}
