import ComposeRouting
import ComposeTestSupport
import Foundation
import Testing

@Suite struct RoutingPathTests {
    @Test func printsAsAURLPath() {
        let path = RoutingPath(screens: [HomeScreen(), DetailScreen(id: 0)])
        #expect(path.description == "/home/detail?id=0")
        #expect(RoutingPath().description == "/")
        #expect(path.url(scheme: "myapp")?.absoluteString == "myapp://home/detail?id=0")
    }

    @Test(arguments: [
        "/home/detail?id=0",
        "home/detail?id=0",
        "/home/detail?id=0/",
        "myapp://home/detail?id=0",
        "MYAPP://home/detail?id=0",
        "myapp:/home/detail?id=0",
        "myapp:home/detail?id=0",
        "myapp:///home/detail?id=0",  // an empty authority (RFC 3986)
    ])
    func parsesLinksAndBarePaths(link: String) throws {
        let path = try RoutingPath(parsing: link, scheme: "myapp")
        #expect(path.elements.map(\.name) == ["home", "detail"])
        #expect(path.elements[1].parameters["id"] == .some("0"))
    }

    @Test func parametersOfEverySegmentAndFlags() throws {
        let path = try RoutingPath(parsing: "/home?tab=2/detail?id=7&flagged")
        #expect(path.elements[0].parameters["tab"] == .some("2"))
        #expect(path.elements[1].parameters["flagged"] == .some(nil))
        #expect(path.description == "/home?tab=2/detail?id=7&flagged")
    }

    @Test func percentEncodingAndUnicode() throws {
        let element = RoutingPath.Element(name: "Résumé / CV", parameters: ["q": "a&b=c?d/e f%", "emoji": "👩‍👩‍👧"])
        let path = RoutingPath([element])
        #expect(
            path.description
                == "/R%C3%A9sum%C3%A9%20%2F%20CV?q=a%26b%3Dc%3Fd%2Fe%20f%25&emoji=%F0%9F%91%A9%E2%80%8D%F0%9F%91%A9%E2%80%8D%F0%9F%91%A7"
        )
        #expect(try RoutingPath(parsing: path.description) == path)
    }

    @Test func presentationsComeFromScreens() throws {
        let resolved = try Navigator.screen(HomeScreen.self, nesting: .screen(SheetScreen.self))
            .resolve(RoutingPath(parsing: "/home/sheet"))
        #expect(resolved.path.elements.map(\.presentation) == [.push, .sheet])
    }

    @Test func isCodable() throws {
        let path = RoutingPath(screens: [HomeScreen(), DetailScreen(id: 3, flagged: true)])
        let data = try JSONEncoder().encode(path)
        #expect(try JSONDecoder().decode(RoutingPath.self, from: data) == path)
        #expect(Set([path, path]).count == 1)
    }

    // MARK: Round trips

    @Test(arguments: 0..<4)
    func printingThenParsingGivesTheSamePath(seed: UInt64) throws {
        var generator = SplitMix64(seed: seed)
        let alphabet = Array("abcXYZ019-._~ /?&=#%:é中😀\u{301}\u{0}")
        func text(_ range: ClosedRange<Int>) -> String {
            String((0..<Int.random(in: range, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! })
        }
        for _ in 0..<1_000 {
            let elements = (0..<Int.random(in: 1...8, using: &generator)).map { _ in
                var parameters = ScreenParameters()
                for _ in 0..<Int.random(in: 0...4, using: &generator) {
                    parameters.set(text(1...6), Bool.random(using: &generator) ? text(0...8) : nil)
                }
                return RoutingPath.Element(name: text(1...10), parameters: parameters)
            }
            let path = RoutingPath(elements)
            let parsed = try RoutingPath(parsing: path.description)
            #expect(parsed == path, "\(path)")
        }
    }

    @Test func typedScreensRoundTripThroughANavigator() throws {
        var generator = SplitMix64(seed: 11)
        for _ in 0..<2_000 {
            let second: any Screen =
                Bool.random(using: &generator)
                ? SettingsScreen()
                : DetailScreen(id: Int.random(in: -1_000_000...1_000_000, using: &generator), flagged: .random(using: &generator))
            let path = RoutingPath(screens: [HomeScreen(), second])
            let resolved = try seedNavigator.resolve(RoutingPath(parsing: path.description))
            #expect(resolved.path == path)
            #expect(AnyHashable(resolved.elements[1].screen) == AnyHashable(second))
        }
    }

    /// Every path the API builds round-trips. Before the fix, `RoutingPath()` printed `/`, which
    /// did not parse; `myapp:///home` was refused; and a path built with an empty name printed
    /// `//`, which did not parse either.
    @Test func theEmptyPathRoundTrips() throws {
        #expect(try RoutingPath(parsing: RoutingPath().description) == RoutingPath())
        #expect(try RoutingPath(parsing: "myapp://", scheme: "myapp") == RoutingPath())
        #expect(try RoutingPath(parsing: "myapp:///", scheme: "myapp") == RoutingPath())
        let url = try #require(RoutingPath().url(scheme: "myapp"))
        #expect(try RoutingPath(url: url, scheme: "myapp") == RoutingPath())
    }

    @Test func anEmptyNameCannotBeBuilt() async {
        await #expect(processExitsWith: .failure) {
            _ = RoutingPath.Element(name: "")
        }
        await #expect(processExitsWith: .failure) {
            let parameters: ScreenParameters = ["": "x"]
            _ = parameters
        }
    }

    @Test func anEmptyNameOrADuplicateParameterCannotBeDecoded() throws {
        let decoder = JSONDecoder()
        #expect(throws: DecodingError.self) {
            try decoder.decode(
                RoutingPath.self, from: Data(#"{"elements":[{"name":"","parameters":{"items":[]},"presentation":"push"}]}"#.utf8))
        }
        #expect(throws: DecodingError.self) {
            try decoder.decode(ScreenParameters.self, from: Data(#"{"items":[{"name":""}]}"#.utf8))
        }
        #expect(throws: DecodingError.self) {
            try decoder.decode(ScreenParameters.self, from: Data(#"{"items":[{"name":"a"},{"name":"a","value":"1"}]}"#.utf8))
        }
        let path = RoutingPath([.init(name: "home", parameters: ["tab": "", "flag": nil])])
        let data = try JSONEncoder().encode(path)
        let decoded = try decoder.decode(RoutingPath.self, from: data)
        #expect(decoded == path)
        #expect(try RoutingPath(parsing: decoded.description) == path)
    }
}
