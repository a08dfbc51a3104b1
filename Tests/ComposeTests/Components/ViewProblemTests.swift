import ComposeTestSupport
import Synchronization
import Testing

@testable import Compose

/// A view adapter's problems showing a component are reported once per type and problem, with a
/// message naming the type and the fix.
@Suite struct ViewProblemTests {
    struct Leaf: Component {
        let tap = SignalEmitter()
        var observers: Void { None }
    }

    struct Parent: Component {
        let first = Leaf()
        let second = Leaf()
        var observers: Void { None }
    }

    @Test func eachProblemIsReportedOncePerTypeAndNamesTheFix() throws {
        let host = ComponentHost(Parent())
        let leaves = host.nodes.filter { $0.typeName.hasSuffix("Leaf") }
        try #require(leaves.count == 2)
        let root = try #require(host.rootNode)
        let (reported, found) = recordingDiagnostics {
            [
                host.report(.notAView(protocolName: "View"), showing: leaves[0]),
                host.report(.notAView(protocolName: "View"), showing: leaves[1]),  // same type: once
                host.report(.notAView(protocolName: "View"), showing: leaves[0]),
                host.report(.ownRouteWithoutContent(requirement: "RoutableView's routableBody"), showing: leaves[0]),
                host.report(.notAView(protocolName: "View"), showing: root),
            ]
        }
        #expect(reported == [true, false, false, true, true])
        #expect(found.count == 3)
        #expect(found[0].contains("Leaf is shown but is not a View"))
        #expect(found[0].contains("extension Leaf: View { var body: some View { ... } }"))
        #expect(found[1].contains("Leaf is a route of its own router"))
        #expect(found[1].contains("RoutableView's routableBody"))
        #expect(found[2].contains("Parent is shown but is not a View"))
        host.unmount()
    }

    struct Screen: Component {
        let shown = Leaf()
        let embedded = Leaf()
        let quiet = Leaf()
        var observers: Void {
            shown.didAppear += {}
            embedded.didAppear += {}
        }
    }

    @Test func aChildWithLifecycleHandlersThatNoViewShowedIsReportedAsItsParentDisappears() throws {
        let host = ComponentHost(Screen(), visibility: .manual)
        let root = try #require(host.rootNode)
        let node = { (name: String) in host.nodes.first { $0.id.hasSuffix("/\(name)") } }
        let shown = try #require(node("shown"))
        var found = diagnostics {
            host.setVisible(root, true)
            host.setVisible(shown, true)
            host.setVisible(shown, false)  // children first, as views go
            host.setVisible(root, false)
        }
        #expect(found.count == 1)
        #expect(found.first?.contains("Screen.embedded did not appear while Screen was visible") == true)
        #expect(found.first?.contains("ComponentView(embedded)") == true)
        #expect(found.first?.contains("quiet") == false)

        found = diagnostics {  // once per host
            host.setVisible(root, true)
            host.setVisible(shown, true)
            host.setVisible(shown, false)
            host.setVisible(root, false)
        }
        #expect(found.isEmpty)
        host.unmount()
    }

    @Test func aChildShownEarlierInTheParentsVisitIsNotReported() throws {
        let host = ComponentHost(Screen(), visibility: .manual)
        let root = try #require(host.rootNode)
        let children = host.nodes.filter { $0 !== root }
        let found = diagnostics {
            host.setVisible(root, true)
            for child in children { host.setVisible(child, true) }
            for child in children.reversed() { host.setVisible(child, false) }
            host.setVisible(root, true)  // already visible: not a new visit
            host.setVisible(root, false)
            host.unmount()
        }
        #expect(found.isEmpty)
    }

    @Test func theRootsChildrenAreCheckedAsTheHostUnmountsAndAnAutomaticHostChecksNothing() throws {
        let manual = ComponentHost(Screen(), visibility: .manual)
        let automatic = ComponentHost(Screen())
        let found = diagnostics {
            manual.setVisible(manual.rootNode!, true)
            manual.unmount()
            automatic.unmount()
        }
        #expect(found.count == 2)  // embedded and shown: neither appeared
        #expect(found.allSatisfy { $0.contains("did not appear while Screen was visible") })
    }

    @Test func anotherHostReportsAgain() {
        let first = ComponentHost(Leaf())
        let second = ComponentHost(Leaf())
        let found = diagnostics {
            first.report(.notAView(protocolName: "View"), showing: first.rootNode!)
            second.report(.notAView(protocolName: "View"), showing: second.rootNode!)
        }
        #expect(found.count == 2)
        first.unmount()
        second.unmount()
    }
}

struct WatchedLeaf: Component {
    let tap = SignalEmitter()
    var observers: Void { None }
}

struct WatchingScreen: Component {
    let child = WatchedLeaf()
    var observers: Void {
        child.didAppear += {}
    }
}

@Suite struct ViewProblemOrderTests {
    /// ComponentViewProblem.childNotShown / Guarantees.md: "a stored child with lifecycle handlers
    /// that no view made visible during its parent's visit is reported as the parent disappears, and
    /// never one that appeared". Here the child appeared (a view made it visible) and stayed visible
    /// for the parent's whole visit; it was made visible an instant before the parent (SwiftUI may
    /// call a child's onAppear first).
    @Test func aChildVisibleForTheParentsWholeVisitIsNotReported() throws {
        let host = ComponentHost(WatchingScreen(), visibility: .manual)
        let root = try #require(host.rootNode)
        let child = try #require(host.nodes.first { $0 !== root })
        let found = diagnostics {
            host.setVisible(child, true)
            host.setVisible(root, true)
            #expect(child.isVisible && root.isVisible)
            host.setVisible(child, false)  // children first, as views go
            host.setVisible(root, false)
        }
        #expect(found.isEmpty, "\(found)")
        host.unmount()
    }

    /// The docs: the parent's visit. A child that stays visible while the parent disappears and
    /// appears again (hidden after the parent, against the order), then is hidden during the second
    /// visit: it was visible during that visit.
    @Test func aChildStillVisibleAtTheStartOfAVisitIsNotReported() throws {
        let host = ComponentHost(WatchingScreen(), visibility: .manual)
        let root = try #require(host.rootNode)
        let child = try #require(host.nodes.first { $0 !== root })
        let found = diagnostics {
            host.setVisible(root, true)
            host.setVisible(child, true)
            host.setVisible(root, false)  // the child stays visible
            host.setVisible(root, true)
            host.setVisible(child, false)
            host.setVisible(root, false)
        }
        #expect(found.isEmpty, "\(found)")
        host.unmount()
    }

    /// `host.report` is once per (type, problem) per host, from many threads at once.
    @Test func reportIsOncePerTypeAndProblemFromManyThreads() async throws {
        for _ in 0..<20 {
            let host = ComponentHost(WatchingScreen())
            let root = try #require(host.rootNode)
            let count = Atomic<Int>(0)
            let reported = Atomic<Int>(0)
            await Diagnostics.withHandler({ _ in reported.add(1, ordering: .relaxed) }) {
                await onThreads(4) { _ in
                    if host.report(.notAView(protocolName: "View"), showing: root) { count.add(1, ordering: .relaxed) }
                }
            }
            #expect(count.load(ordering: .relaxed) == 1)
            #expect(reported.load(ordering: .relaxed) <= 1)
            host.unmount()
        }
    }
}
