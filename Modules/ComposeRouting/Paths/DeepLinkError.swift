/// Why a deep link or routing path was refused: which segment failed, and why. Navigation is
/// left as it was.
public struct DeepLinkError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Why a segment or the whole text was refused.
    public enum Reason: Equatable, Sendable {
        // Syntax
        /// The text is longer than the limit (in UTF-8 bytes).
        case tooLong(length: Int, limit: Int)
        /// More segments than the limit.
        case tooDeep(limit: Int)
        /// More parameters in one segment than the limit.
        case tooManyParameters(limit: Int)
        /// The URL's scheme is not the app's.
        case wrongScheme(expected: String, found: String)
        /// A `#fragment`, which routing paths do not have.
        case fragment
        /// No segment at all.
        case empty
        /// `//` in the middle of the path.
        case emptySegment
        /// A segment with parameters and no name (`/?id=0`).
        case emptyName
        /// `&&` or a parameter without a name (`?=1`).
        case emptyParameter
        /// The same parameter twice in one segment.
        case duplicateParameter(String)
        /// A `%` not followed by two hexadecimal digits.
        case malformedPercentEncoding(String)
        /// Percent-decoded bytes that are not UTF-8.
        case invalidUTF8

        // Meaning
        /// No screen of that name is reachable here.
        case unknownScreen(name: String, expected: [String])
        /// The screen's parameters are malformed.
        case malformedArguments(screen: String, problem: String)
        /// A parameter the screen does not take.
        case unexpectedParameter(screen: String, name: String)
        /// Nothing can follow the previous screen.
        case unexpectedSegment(after: String)
        /// A condition of the navigator chose a branch that does not take the path (the other
        /// branch would have).
        case refusedByCondition(String)
        /// The screen's component is not on the router the path reaches there.
        case notOnRouter(screen: String, router: String)
        /// The screen's navigator says nothing of where it is shown.
        case noDestination(screen: String)
        /// A router refused the route.
        case routing(String)
        /// The screen's destination refused it: its `make:` threw (`reason` is the error), or
        /// its `find:` found nothing (a deep link to an entity that does not exist).
        case refused(screen: String, reason: String)
        /// A route on a router's stack that no screen of the navigator stands for (reading a
        /// path back).
        case unrepresentable(route: String)
    }

    /// The 0-based index of the failing segment, when one failed.
    public let segment: Int?
    /// Why it was refused.
    public let reason: Reason

    /// An error at `segment` (`nil`: the whole text) for `reason`.
    public init(segment: Int?, _ reason: Reason) {
        self.segment = segment
        self.reason = reason
    }

    /// `segment 1: no screen "foo" here (expected settings or detail)`.
    public var description: String {
        let place = segment.map { "segment \($0): " } ?? ""
        return place + explanation
    }

    private var explanation: String {
        switch reason {
        case .tooLong(let length, let limit): "the link is \(length) bytes long, more than the limit of \(limit)"
        case .tooDeep(let limit): "the path has more than \(limit) segments"
        case .tooManyParameters(let limit): "more than \(limit) parameters"
        case .wrongScheme(let expected, let found): "scheme \"\(found)\" is not \"\(expected)\""
        case .fragment: "a routing path has no #fragment"
        case .empty: "the path is empty"
        case .emptySegment: "empty segment (//)"
        case .emptyName: "a segment needs a name"
        case .emptyParameter: "empty parameter"
        case .duplicateParameter(let name): "parameter \"\(name)\" appears twice"
        case .malformedPercentEncoding(let text): "malformed percent-encoding \"\(text)\""
        case .invalidUTF8: "percent-decoded bytes are not UTF-8"
        case .unknownScreen(let name, let expected):
            "no screen \"\(name)\" here (expected \(expected.isEmpty ? "nothing" : expected.joined(separator: " or ")))"
        case .malformedArguments(let screen, let problem): "\(screen): \(problem)"
        case .unexpectedParameter(let screen, let name): "\(screen) takes no parameter \"\(name)\""
        case .unexpectedSegment(let after): "nothing can follow \(after)"
        case .refusedByCondition(let condition): "refused by the condition \(condition)"
        case .notOnRouter(let screen, let router): "\(screen) is not a route of \(router)"
        case .noDestination(let screen): "the navigator does not say where \(screen) is shown"
        case .routing(let reason): reason
        case .refused(let screen, let reason): "\(screen) refused: \(reason)"
        case .unrepresentable(let route): "no screen of the navigator stands for \(route)"
        }
    }
}
