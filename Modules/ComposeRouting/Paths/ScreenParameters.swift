/// The arguments of a screen in a routing path: ordered name–value pairs, printed as a query
/// (`detail?id=0&flag`).
///
/// ```swift
/// struct DetailScreen: Screen {
///     static let name = "detail"
///     let id: Int
///
///     init(id: Int) { self.id = id }
///     init(parameters: ScreenParameters) throws {
///         id = try parameters.required("id", as: Int.self)
///     }
///     var parameters: ScreenParameters { ["id": "\(id)"] }
/// }
/// ```
///
/// A name appears at most once (a repeated name in a deep link is refused), and a parameter
/// without a value is a flag (`?debug`).
public struct ScreenParameters: Hashable, Codable, Sendable, ExpressibleByDictionaryLiteral, CustomStringConvertible {
    /// One parameter.
    public struct Item: Hashable, Codable, Sendable {
        /// Never empty.
        public let name: String
        /// `nil` for a flag.
        public let value: String?

        /// - Precondition: `name` is not empty: it would print a query that does not parse back.
        public init(name: String, value: String?) {
            precondition(!name.isEmpty, "ScreenParameters: a parameter's name cannot be empty")
            self.name = name
            self.value = value
        }

        private enum CodingKeys: String, CodingKey {
            case name, value
        }

        /// Refuses an empty name.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            let name = try container.decode(String.self, forKey: .name)
            guard !name.isEmpty else {
                throw DecodingError.dataCorruptedError(
                    forKey: .name, in: container, debugDescription: "a parameter's name cannot be empty")
            }
            self.name = name
            value = try container.decodeIfPresent(String.self, forKey: .value)
        }
    }

    /// The parameters, in order.
    public private(set) var items: [Item]

    /// No parameters.
    public init() {
        items = []
    }

    /// The given parameters, in order. A later item with the same name replaces an earlier one.
    public init(_ items: [Item]) {
        self.items = []
        for item in items { set(item.name, item.value) }
    }

    /// Items whose names are known to be distinct (the parser checked).
    init(unique items: [Item]) {
        self.items = items
    }

    private enum CodingKeys: String, CodingKey {
        case items
    }

    /// Refuses a name that appears twice, which would not print a valid query.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let items = try container.decode([Item].self, forKey: .items)
        guard Set(items.map(\.name)).count == items.count else {
            throw DecodingError.dataCorruptedError(
                forKey: .items, in: container, debugDescription: "a parameter's name appears twice")
        }
        self.items = items
    }

    /// `["id": "0", "tab": "info"]`, in the literal's order.
    public init(dictionaryLiteral elements: (String, String?)...) {
        self.init(elements.map { Item(name: $0.0, value: $0.1) })
    }

    /// The value of `name`: `nil` if absent, `.some(nil)` for a flag.
    public subscript(name: String) -> String?? {
        guard let item = items.first(where: { $0.name == name }) else { return nil }
        return .some(item.value)
    }

    /// Sets `name` to `value` (`nil`: a flag), keeping its place if it was there.
    public mutating func set(_ name: String, _ value: String?) {
        if let index = items.firstIndex(where: { $0.name == name }) {
            items[index] = Item(name: name, value: value)
        } else {
            items.append(Item(name: name, value: value))
        }
    }

    /// The names, in order.
    public var names: [String] {
        items.map(\.name)
    }

    /// Whether there are no parameters.
    public var isEmpty: Bool {
        items.isEmpty
    }

    // MARK: Reading typed values

    /// The value of `name`, converted.
    ///
    /// - Throws: ``ScreenParameterError`` if it is missing, a flag, or not a valid `T`.
    public func required<T: LosslessStringConvertible>(_ name: String, as type: T.Type = T.self) throws -> T {
        guard let found = self[name] else { throw ScreenParameterError(name: name, problem: "is missing") }
        guard let text = found else { throw ScreenParameterError(name: name, problem: "has no value") }
        guard let value = T(text) else {
            throw ScreenParameterError(name: name, problem: "is not a valid \(T.self): \"\(text.prefix(40))\"")
        }
        return value
    }

    /// The value of `name`, converted, or `nil` if it is absent.
    ///
    /// - Throws: ``ScreenParameterError`` if it is present but a flag or not a valid `T`.
    public func optional<T: LosslessStringConvertible>(_ name: String, as type: T.Type = T.self) throws -> T? {
        guard self[name] != nil else { return nil }
        return try required(name, as: T.self)
    }

    /// Whether the flag `name` is present.
    public func flag(_ name: String) -> Bool {
        self[name] != nil
    }

    /// `id=0&debug`.
    public var description: String {
        items.map { item in
            PercentEncoding.encode(item.name) + (item.value.map { "=" + PercentEncoding.encode($0) } ?? "")
        }.joined(separator: "&")
    }
}

/// A screen's parameter is missing or malformed.
public struct ScreenParameterError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The parameter's name.
    public let name: String
    /// What is wrong with it (`missing`, `not an Int: "x"`).
    public let problem: String

    /// An error of the parameter `name`, saying `problem`.
    public init(name: String, problem: String) {
        self.name = name
        self.problem = problem
    }

    /// `parameter "id" is missing`.
    public var description: String {
        "parameter \"\(name)\" \(problem)"
    }
}
