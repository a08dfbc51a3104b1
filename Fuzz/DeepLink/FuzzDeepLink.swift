// A libFuzzer target for the deep-link parser and navigator resolution.
//
//   Scripts/fuzz deep-link 60     # fuzz for 60 seconds (builds with -sanitize=fuzzer,address)
//   swift run FuzzDeepLink FILE…  # replay inputs (a crash's, or the corpus) without libFuzzer
//
// Any input must parse to a path or a typed error, never crash, hang or allocate without
// bound; a parsed path must print and parse back to itself; resolution against a navigator
// must give a resolved path or a typed error.

import ComposeRouting
import Foundation
import FuzzSupport

struct Home: ParameterlessScreen { static let name = "home" }
struct Settings: ParameterlessScreen { static let name = "settings" }
struct Detail: Screen {
    static let name = "detail"
    let id: Int
    let tab: String?
    init(parameters: ScreenParameters) throws {
        id = try parameters.required("id")
        tab = try parameters.optional("tab")
    }
    var parameters: ScreenParameters {
        var parameters: ScreenParameters = ["id": "\(id)"]
        if let tab { parameters.set("tab", tab) }
        return parameters
    }
}

/// Detail screens nest in each other, eight deep; any path can be tried against it. Made per
/// input: a global's boxes would be reported as leaked when the fuzzer exits.
func makeNavigator() -> Navigator {
    var detail = Navigator.screen(Detail.self)
    for _ in 0..<8 { detail = .screen(Detail.self, nesting: .anyOf(detail, .screen(Settings.self))) }
    return .conditional(
        either: .screen(Home.self, nesting: .anyOf(.screen(Settings.self), detail)),
        or: .wildcard(screen: Home(), navigator: .screen(Home.self)),
        basedOn: { true }
    )
}

func check(_ bytes: UnsafeBufferPointer<UInt8>) {
    let text = String(decoding: bytes, as: UTF8.self)
    let limits = DeepLinkLimits(maxLength: 4_096, maxSegments: 32, maxParameters: 8)
    // The first byte's lowest bit chooses whether the app has a scheme (deterministic input).
    let scheme = (bytes.first ?? 0) & 1 == 0 ? "myapp" : nil
    guard let path = try? RoutingPath(parsing: text, scheme: scheme, limits: limits) else { return }
    // Printing, then parsing, gives the same path.
    let printed = path.description
    guard
        let reparsed = try? RoutingPath(
            parsing: printed, limits: DeepLinkLimits(maxLength: 1 << 20, maxSegments: 32, maxParameters: 8))
    else {
        fatalError("the printed path does not parse: \(printed)")
    }
    precondition(reparsed == path, "round trip changed the path: \(path) -> \(reparsed)")
    if let resolved = try? makeNavigator().resolve(path) {
        precondition(!resolved.elements.isEmpty)
        _ = resolved.path.description
    }
}

#if FUZZING
@_cdecl("FuzzDeepLink_main")
func fuzzerMain(_ argc: CInt, _ argv: FuzzerArguments) -> CInt { runFuzzer(argc, argv, check) }
#else
/// Without libFuzzer: replays the files given (or every file of the directories given).
@main enum Replay { static func main() throws { try replay(CommandLine.arguments.dropFirst(), check) } }
#endif
