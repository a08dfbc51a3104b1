import Compose
import ComposeTestSupport
import Foundation
import Testing

/// Stored properties of a zero-size component type: key paths to them are equal (they are
/// offsets, and the properties share theirs), so a router refuses them as ambiguous rather than
/// take one for another; distinct zero-size types are told apart by their type.
@Suite struct ZeroSizeRouteTests {
    struct StaticPage: Component {
        var observers: Void { None }
    }

    struct AboutPage: Component {
        var observers: Void { None }
    }

    struct Home: Component {
        let tap = SignalEmitter()
        var observers: Void { None }
    }

    struct SameType: RouterComponent {
        let home = Home()
        let about = StaticPage()
        let terms = StaticPage()
        let router = Router(start: \Self.home)
        var observers: Void { None }
    }

    struct DistinctTypes: RouterComponent {
        let home = Home()
        let about = AboutPage()
        let terms = StaticPage()
        let router = Router(start: \Self.home)
        var observers: Void { None }
    }

    /// Before the fix, `push(\.terms)` after `push(\.about)` was refused as "already on the
    /// stack", and `isVisible(\.terms)` answered for `about`.
    @Test func twoPropertiesOfOneZeroSizeTypeAreRefusedAsAmbiguous() {
        #expect(\SameType.about == \SameType.terms)  // what Swift gives us to work with
        let host = ComponentHost(SameType())
        let errors = Recorder<RoutingError>()
        host.root.router.errors += errors.record
        let found = diagnostics { #expect(!host.root.router.push(\SameType.terms)) }
        #expect(errors.values.map(\.kind) == [.ambiguous])
        #expect(errors.values.first?.reason.contains(#"\SameType.about, \SameType.terms"#) == true)
        #expect(found.count == 1)
        #expect(host.root.router.paths == [\SameType.home])
        #expect(host.node(\.terms) == nil)  // no wrong answer
        #expect(!host.isVisible(\.terms))
        #expect(host.visibleIDs == ["SameType", "SameType/home"])
        host.unmount()
    }

    @Test func zeroSizeComponentsOfDistinctTypesAreTheirOwnRoutes() {
        let host = ComponentHost(DistinctTypes())
        #expect(host.root.router.push(\DistinctTypes.terms))
        #expect(host.isVisible(\.terms))
        #expect(!host.isVisible(\.about))
        #expect(host.root.router.push(\DistinctTypes.about))
        #expect(host.visibleIDs == ["DistinctTypes", "DistinctTypes/about"])
        #expect(host.root.router.pop())
        #expect(host.visibleIDs == ["DistinctTypes", "DistinctTypes/terms"])
        host.unmount()
    }
}
