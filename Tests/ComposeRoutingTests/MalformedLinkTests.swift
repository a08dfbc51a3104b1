import ComposeRouting
import Testing

/// Deep links come from outside: every malformed one gives a typed error naming the segment.
@Suite struct MalformedLinkTests {
    typealias Reason = DeepLinkError.Reason

    static let cases: [(String, Int?, Reason)] = [
        ("", nil, .empty),
        ("myapp:", nil, .empty),
        ("//", nil, .empty),  // a bare path: no authority without a scheme
        ("/home//detail", 1, .emptySegment),
        ("//home", 0, .emptySegment),  // after `myapp:` this would be the authority
        ("/home/?id=0", 1, .emptyName),
        ("/home?&x", 0, .emptyParameter),
        ("/home?=1", 0, .emptyParameter),
        ("/home?a=1&a=2", 0, .duplicateParameter("a")),
        ("/home/detail?id=%zz", 1, .malformedPercentEncoding("%zz")),
        ("/home/detail?id=%4", 1, .malformedPercentEncoding("%4")),
        ("/home/%", 1, .malformedPercentEncoding("%")),
        ("/home/%C3%28", 1, .invalidUTF8),
        ("/home/%FF", 1, .invalidUTF8),
        ("/home#top", nil, .fragment),
        ("other://home", nil, .wrongScheme(expected: "myapp", found: "other")),
        ("https://example.com/home", nil, .wrongScheme(expected: "myapp", found: "https")),
    ]

    @Test(arguments: cases)
    func malformedLinks(link: String, segment: Int?, reason: Reason) {
        #expect(throws: DeepLinkError(segment: segment, reason)) {
            try RoutingPath(parsing: link, scheme: link.hasPrefix("//") ? nil : "myapp")
        }
    }

    @Test func withoutASchemeALinkWithOneIsRefused() {
        #expect(throws: DeepLinkError(segment: nil, .wrongScheme(expected: "none", found: "myapp"))) {
            try RoutingPath(parsing: "myapp://home")
        }
    }

    @Test func limitsBoundTheWork() {
        let limits = DeepLinkLimits(maxLength: 100, maxSegments: 3, maxParameters: 2)
        #expect(throws: DeepLinkError(segment: nil, .tooLong(length: 101, limit: 100))) {
            try RoutingPath(parsing: "/" + String(repeating: "a", count: 100), limits: limits)
        }
        #expect(throws: DeepLinkError(segment: 3, .tooDeep(limit: 3))) {
            try RoutingPath(parsing: "/a/b/c/d", limits: limits)
        }
        #expect(throws: DeepLinkError(segment: 0, .tooManyParameters(limit: 2))) {
            try RoutingPath(parsing: "/a?x&y&z", limits: limits)
        }
        // A megabyte of slashes is refused before any of it is looked at.
        #expect(throws: DeepLinkError.self) { try RoutingPath(parsing: String(repeating: "/", count: 1 << 20)) }
    }

    // MARK: Against a navigator

    @Test func unknownScreensListWhatWasExpected() throws {
        let error = #expect(throws: DeepLinkError.self) { try seedNavigator.resolve(RoutingPath(parsing: "/home/profile")) }
        #expect(error == DeepLinkError(segment: 1, .unknownScreen(name: "profile", expected: ["settings", "detail"])))
        #expect(error?.description == "segment 1: no screen \"profile\" here (expected settings or detail)")
    }

    @Test func malformedArgumentsSayWhich() throws {
        let error = #expect(throws: DeepLinkError.self) {
            try seedNavigator.resolve(RoutingPath(parsing: "/home/detail?id=seven"))
        }
        #expect(error?.segment == 1)
        #expect(error?.description.contains("parameter \"id\" is not a valid Int") == true)
        #expect(throws: DeepLinkError(segment: 1, .malformedArguments(screen: "detail", problem: "parameter \"id\" is missing")))
        {
            try seedNavigator.resolve(RoutingPath(parsing: "/home/detail"))
        }
        #expect(throws: DeepLinkError(segment: 1, .unexpectedParameter(screen: "detail", name: "extra"))) {
            try seedNavigator.resolve(RoutingPath(parsing: "/home/detail?id=1&extra=2"))
        }
        #expect(throws: DeepLinkError(segment: 2, .unexpectedSegment(after: "settings"))) {
            try seedNavigator.resolve(RoutingPath(parsing: "/home/settings/detail?id=1"))
        }
    }
}
