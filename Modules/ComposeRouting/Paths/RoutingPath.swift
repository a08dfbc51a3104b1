import Foundation

/// A path through the app's screens, as a value: `/home/detail?id=0`.
///
/// A routing path is an ordered list of screens, each with its parameters and its
/// presentation. It prints as a URL path (each segment a screen's name, with its parameters as
/// a query: `/home?tab=2/detail?id=0`), parses back, and is `Codable`, so navigation can be
/// saved and restored. A ``Navigator`` says which paths are valid and what they show.
///
/// ```swift
/// let path = try RoutingPath(parsing: "myapp://home/detail?id=0", scheme: "myapp")
/// path.description              // "/home/detail?id=0"
/// try host.navigate(to: path, with: appNavigator)
/// ```
///
/// ## Parsing
/// Parsing is linear in the text's length and bounded by ``DeepLinkLimits``: any input gives a
/// path or a ``DeepLinkError`` saying which segment failed and why. Names and parameters are
/// percent-decoded (a malformed `%` sequence or bytes that are not UTF-8 are refused); a
/// parameter appears once per segment; `//` is refused; one trailing `/` is allowed; a
/// `#fragment` is refused. After a scheme, `//` may be followed by an empty authority
/// (`myapp:///home`, as RFC 3986 allows). `/` (and `myapp://`) is the empty path. The
/// presentation is not part of the text: a parsed element is a push until a navigator gives it
/// its screen's presentation.
///
/// ## Round trips
/// Every path the API builds prints as text that parses back to it (within the parser's
/// ``DeepLinkLimits``): names and parameter names are never empty (building one is a
/// precondition failure, decoding one an error), and everything else is percent-encoded.
public struct RoutingPath: Hashable, Codable, Sendable, CustomStringConvertible, ExpressibleByArrayLiteral {
    /// One screen of the path.
    public struct Element: Hashable, Codable, Sendable, CustomStringConvertible {
        /// The screen's name: the path segment. Never empty.
        public let name: String
        /// The screen's parameters: the segment's query.
        public var parameters: ScreenParameters
        /// How the screen is shown.
        public var presentation: Presentation

        /// - Precondition: `name` is not empty: an empty segment would print a path that does
        ///   not parse back (`//`).
        public init(name: String, parameters: ScreenParameters = ScreenParameters(), presentation: Presentation = .push) {
            precondition(!name.isEmpty, "RoutingPath.Element: a screen's name cannot be empty")
            self.name = name
            self.parameters = parameters
            self.presentation = presentation
        }

        private enum CodingKeys: String, CodingKey {
            case name, parameters, presentation
        }

        /// Refuses an empty name, which would not print a valid path.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            let name = try container.decode(String.self, forKey: .name)
            guard !name.isEmpty else {
                throw DecodingError.dataCorruptedError(
                    forKey: .name, in: container, debugDescription: "a screen's name cannot be empty")
            }
            self.name = name
            parameters = try container.decode(ScreenParameters.self, forKey: .parameters)
            presentation = try container.decode(Presentation.self, forKey: .presentation)
        }

        /// The element for `screen`.
        public init(_ screen: some Screen) {
            self.init(name: type(of: screen).name, parameters: screen.parameters, presentation: screen.presentation)
        }

        /// `detail?id=0`.
        public var description: String {
            PercentEncoding.encode(name) + (parameters.isEmpty ? "" : "?" + parameters.description)
        }
    }

    /// The screens, first to last.
    public var elements: [Element]

    /// The path of `elements` (none: the empty path, `/`).
    public init(_ elements: [Element] = []) {
        self.elements = elements
    }

    public init(arrayLiteral elements: Element...) {
        self.elements = elements
    }

    /// The path of `screens`, in order.
    public init(screens: [any Screen]) {
        elements = screens.map { Element($0) }
    }

    /// `/home/detail?id=0`; `/` for the empty path.
    public var description: String {
        "/" + elements.map(\.description).joined(separator: "/")
    }

    /// The path as a URL of the app's scheme: `myapp://home/detail?id=0`.
    public func url(scheme: String) -> URL? {
        URL(string: scheme + "://" + elements.map(\.description).joined(separator: "/"))
    }

    /// Parses a deep link (`myapp://home/detail?id=0`, `myapp:/home/detail?id=0`) or a bare
    /// path (`/home/detail?id=0`).
    ///
    /// - Parameters:
    ///   - text: The link.
    ///   - scheme: The app's scheme. A link with another scheme is refused; without it, a link
    ///     with any scheme is refused. A bare path is accepted either way.
    ///   - limits: Bounds on the text.
    /// - Throws: ``DeepLinkError``, naming the failing segment.
    /// - Complexity: O(*n*) in the length of `text`.
    public init(parsing text: String, scheme: String? = nil, limits: DeepLinkLimits = .default) throws(DeepLinkError) {
        var text = text
        let parsed: Result<RoutingPath, DeepLinkError> = text.withUTF8 { bytes in
            Result { () throws(DeepLinkError) in try DeepLinkParser(bytes: bytes, scheme: scheme, limits: limits).parse() }
        }
        self = try parsed.get()
    }

    /// Parses `url`; see ``init(parsing:scheme:limits:)``.
    public init(url: URL, scheme: String? = nil, limits: DeepLinkLimits = .default) throws(DeepLinkError) {
        try self.init(parsing: url.absoluteString, scheme: scheme, limits: limits)
    }
}

/// The syntax of routing paths, in one pass over the bytes.
struct DeepLinkParser {
    let bytes: UnsafeBufferPointer<UInt8>
    let scheme: String?
    let limits: DeepLinkLimits

    func parse() throws(DeepLinkError) -> RoutingPath {
        guard bytes.count <= limits.maxLength else {
            throw DeepLinkError(segment: nil, .tooLong(length: bytes.count, limit: limits.maxLength))
        }
        let hasScheme = try afterScheme()
        var start = hasScheme ?? 0
        if bytes[start...].contains(UInt8(ascii: "#")) { throw DeepLinkError(segment: nil, .fragment) }
        let slash = UInt8(ascii: "/")
        let rest = bytes.count - start
        // The empty path: `/`, and after a scheme `/`, `//` or `///` (an empty authority).
        if rest >= 1, bytes[start...].allSatisfy({ $0 == slash }), rest == 1 || (hasScheme != nil && rest <= 3) {
            return RoutingPath()
        }
        // After a scheme, an optional `//` and an empty authority's `/`; then an optional
        // leading `/`.
        if hasScheme != nil, rest >= 2, bytes[start] == slash, bytes[start + 1] == slash {
            start += 2
            if start < bytes.count, bytes[start] == slash { start += 1 }  // `myapp:///home`
        } else if start < bytes.count, bytes[start] == slash {
            start += 1
        }
        var end = bytes.count
        if end > start, bytes[end - 1] == slash { end -= 1 }  // one trailing slash
        guard end > start else { throw DeepLinkError(segment: nil, .empty) }

        var elements: [RoutingPath.Element] = []
        try forEachPart(from: start, to: end, separatedBy: UInt8(ascii: "/")) { (from: Int, to: Int) throws(DeepLinkError) in
            let segment = elements.count
            guard segment < limits.maxSegments else { throw DeepLinkError(segment: segment, .tooDeep(limit: limits.maxSegments)) }
            guard to > from else { throw DeepLinkError(segment: segment, .emptySegment) }
            elements.append(try element(from: from, to: to, segment: segment))
        }
        return RoutingPath(elements)
    }

    /// The index after `scheme:`, checking the scheme; `nil` for a bare path.
    private func afterScheme() throws(DeepLinkError) -> Int? {
        // A scheme is letters, digits, `+`, `-` and `.`, starting with a letter, then `:`.
        var index = 0
        while index < bytes.count, bytes[index] != UInt8(ascii: ":") {
            let byte = bytes[index]
            let isLetter = (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
            let isSchemeByte =
                isLetter || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
            guard isSchemeByte, index > 0 || isLetter else { return nil }  // a bare path
            index += 1
        }
        guard index < bytes.count, index > 0 else { return nil }
        let found = String(decoding: bytes[..<index], as: UTF8.self)
        guard let scheme, found.lowercased() == scheme.lowercased() else {
            throw DeepLinkError(segment: nil, .wrongScheme(expected: scheme ?? "none", found: found))
        }
        return index + 1
    }

    /// The element in `bytes[from..<to]`: a name, then an optional query.
    private func element(from: Int, to: Int, segment: Int) throws(DeepLinkError) -> RoutingPath.Element {
        var query = to
        for index in from..<to where bytes[index] == UInt8(ascii: "?") {
            query = index
            break
        }
        guard query > from else { throw DeepLinkError(segment: segment, .emptyName) }
        let name = try decode(from, query, segment: segment)
        var parameters: [ScreenParameters.Item] = []
        if query < to {
            try forEachPart(from: query + 1, to: to, separatedBy: UInt8(ascii: "&")) {
                (from: Int, to: Int) throws(DeepLinkError) in
                guard to > from else { throw DeepLinkError(segment: segment, .emptyParameter) }
                guard parameters.count < limits.maxParameters else {
                    throw DeepLinkError(segment: segment, .tooManyParameters(limit: limits.maxParameters))
                }
                let item = try parameter(from: from, to: to, segment: segment)
                // At most `maxParameters` (a few): a scan costs less than a set.
                guard !parameters.contains(where: { $0.name == item.name }) else {
                    throw DeepLinkError(segment: segment, .duplicateParameter(item.name))
                }
                parameters.append(item)
            }
        }
        return RoutingPath.Element(name: name, parameters: ScreenParameters(unique: parameters))
    }

    /// Calls `body` with the bounds of each part of `bytes[from..<to]` between `separator`s
    /// (empty parts included), in order.
    private func forEachPart(
        from: Int,
        to: Int,
        separatedBy separator: UInt8,
        _ body: (_ from: Int, _ to: Int) throws(DeepLinkError) -> Void
    ) throws(DeepLinkError) {
        var partStart = from
        for index in from...to where index == to || bytes[index] == separator {
            try body(partStart, index)
            partStart = index + 1
        }
    }

    private func parameter(from: Int, to: Int, segment: Int) throws(DeepLinkError) -> ScreenParameters.Item {
        var equals = to
        for index in from..<to where bytes[index] == UInt8(ascii: "=") {
            equals = index
            break
        }
        guard equals > from else { throw DeepLinkError(segment: segment, .emptyParameter) }
        let name = try decode(from, equals, segment: segment)
        let value = equals < to ? try decode(equals + 1, to, segment: segment) : nil
        return ScreenParameters.Item(name: name, value: value)
    }

    private func decode(_ from: Int, _ to: Int, segment: Int) throws(DeepLinkError) -> String {
        do {
            return try PercentEncoding.decode(bytes[from..<to])
        } catch {
            switch error {
            case .malformed(let text): throw DeepLinkError(segment: segment, .malformedPercentEncoding(text))
            case .invalidUTF8: throw DeepLinkError(segment: segment, .invalidUTF8)
            }
        }
    }
}
