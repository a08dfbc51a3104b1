import Benchmark
import Compose

/// Routing scenarios: parsing a path of 20 and of 1,000 segments, and parsing and applying a
/// 20-segment deep link to a component tree (resolving it, creating 20 instance components,
/// setting the router, destroying the previous 20).
func routingBenchmarks() {
    parsing(20)
    parsing(1_000)
    deepLink()
}

private func pathText(_ segments: Int, from first: Int = 0) -> String {
    (first..<first + segments).map { "/page?n=\($0)&tab=info%20\($0)" }.joined()
}

private func parsing(_ segments: Int) {
    let text = pathText(segments)
    let limits = DeepLinkLimits(maxLength: 1 << 20, maxSegments: 10_000, maxParameters: 8)
    Benchmark(
        "Routing/parse \(segments) segments/Compose",
        configuration: scenario(ops: 1, unit: "paths")
    ) { _ in
        do {
            blackHole(try RoutingPath(parsing: text, limits: limits))
        } catch {
            fatalError("benchmark parse failed: \(error)")
        }
    }
}

struct PageScreen: Screen {
    static let name = "page"
    let number: Int
    let tab: String
    init(number: Int, tab: String) {
        self.number = number
        self.tab = tab
    }
    init(parameters: ScreenParameters) throws {
        number = try parameters.required("n")
        tab = try parameters.required("tab")
    }
    var parameters: ScreenParameters { ["n": "\(number)", "tab": tab] }
}

struct PageComponent: Component {
    let screen: PageScreen
    let tap = SignalEmitter()
    var observers: Void {
        tap += {}
    }
}

struct Book: RouterComponent {
    let pages = InstanceComponent<PageComponent>()
    let router = Router()
    var observers: Void { None }
}

private func deepLink() {
    var navigator = Navigator.screen(
        PageScreen.self, route: \Book.pages, make: { PageComponent(screen: $0) }, read: { $0.screen }
    )
    for _ in 1..<20 {
        navigator = .screen(
            PageScreen.self, route: \Book.pages, make: { PageComponent(screen: $0) }, read: { $0.screen },
            nesting: navigator
        )
    }
    let host = ComponentHost(Book())
    let links = [pathText(20), pathText(20, from: 100)]
    let counter = Box()
    Benchmark(
        "Routing/parse+apply 20-segment deep link/Compose",
        configuration: scenario(ops: 1, unit: "links")
    ) { _ in
        counter.value += 1
        do {
            try host.open(links[counter.value % 2], with: navigator)
        } catch {
            fatalError("benchmark deep link failed: \(error)")
        }
        precondition(host.root.router.depth == 20)
    }
}

/// A counter the benchmark closure can bump.
private final class Box: @unchecked Sendable {
    var value = 0
}
