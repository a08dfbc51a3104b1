import ComposeEmitters
import ComposeRouting
import ComposeTestSupport
import Dispatch
import Foundation
import Observation
import Testing

/// A router on its own, before any host binds it.
@Suite struct RouterTests {
    struct Page: Routable {
        var title = ""
    }

    struct Owner: Routable {
        let home = Page(title: "home")
        let detail = Page(title: "detail")
        let settings = Page(title: "settings")
        var computed: Page { home }
    }

    @Test func aStartedRouterKeepsItsRoot() {
        let router = Router(start: \Owner.home)
        #expect(router.paths == [\Owner.home])
        #expect(router.push(\Owner.detail))
        #expect(router.push(\Owner.settings, animated: false))
        #expect(router.path == \Owner.settings)
        #expect(router.pop())
        #expect(router.popToRoot())
        #expect(router.paths == [\Owner.home])
        let (popped, found) = recordingDiagnostics { router.pop() }
        #expect(!popped)
        #expect(found.first?.contains("nothing above its root") == true)
    }

    @Test func replaceMakesANewRoot() {
        let router = Router(start: \Owner.home)
        router.push(\Owner.detail)
        #expect(router.replace(\Owner.settings))
        #expect(router.paths == [\Owner.settings])
        _ = diagnostics { #expect(!router.pop()) }
    }

    @Test func defaultContentLiesUnderTheStack() {
        let router = Router()
        #expect(router.hasDefaultContent)
        #expect(router.path == nil)
        #expect(router.push(\Owner.detail))
        #expect(router.pop())
        #expect(router.depth == 0)
        _ = diagnostics { #expect(!router.pop()) }
    }

    @Test func refusalsNameTheRouteAndTheReason() {
        let router = Router(start: \Owner.home)
        let errors = Recorder<RoutingError>()
        router.errors += { errors.record($0) }
        _ = diagnostics {
            router.push(\Owner.home)  // already on the stack
            router.push(\Owner.computed)  // not stored
            router.push(\RouterTests.Wrapper.page)  // another owner
        }
        #expect(errors.values.map(\.kind) == [.alreadyOnStack, .notRoutable, .notRoutable])
        #expect(errors.values[0].reason.contains("position 0"))
        #expect(errors.values[2].reason.contains("rooted in Wrapper, but Router<Owner> belongs to Owner"))
        #expect(router.paths == [\Owner.home])
    }

    struct Wrapper {
        let page = Page()
    }

    /// Setting the navigation path only ever shortens it: a path that is not a prefix of the
    /// current one is refused and changes nothing, whether it is shorter, as long or longer.
    @Test func aNavigationPathIsOnlyEverShortened() throws {
        let router = Router(start: \Owner.home)
        router.push(\Owner.detail)
        router.push(\Owner.settings)
        let path = router.navigationPath
        let (detail, settings) = (path[0], path[1])
        let errors = Recorder<RoutingError.Kind>()
        router.errors += { errors.record($0.kind) }
        _ = diagnostics {
            for refused in [[settings], [settings, detail], [detail, settings, settings], [settings, settings]] {
                #expect(throws: RoutingError.self, "\(refused)") { try router.setNavigationPath(refused) }
                #expect(router.navigationPath == [detail, settings])
            }
        }
        #expect(errors.values == Array(repeating: .notRoutable, count: 4))
        try router.setNavigationPath([detail, settings])  // the same path: nothing to do
        try router.setNavigationPath([detail])
        #expect(router.paths == [\Owner.home, \Owner.detail])
        try router.setNavigationPath([])
        #expect(router.paths == [\Owner.home])
    }

    @Test func emittersSendAfterTheStackChanged() {
        let router = Router(start: \Owner.home)
        let seen = Recorder<String>()
        router.didPush += { change in seen.record("push \(change.depth) now \(router.depth)") }
        router.didPop += { change in seen.record("\(change.kind) \(change.depth + change.popped.count)->\(change.depth)") }
        router.didReplace += { change in seen.record("replace animated=\(change.animated)") }
        router.push(\Owner.detail)
        router.pop()
        router.replace(\Owner.settings)
        #expect(seen.values == ["push 2 now 2", "pop 2->1", "replace animated=false"])
    }

    @Test func theLastChangeIsTheOneObserversAreToldOf() {
        let router = Router(start: \Owner.home)
        #expect(router.lastChange == nil)
        let seen = Recorder<String>()
        router.didPush += { change in seen.record("push animated=\(router.lastChange?.animated == change.animated)") }
        withObservationTracking {
            _ = router.routes
        } onChange: {
            seen.record("observed \(router.lastChange?.kind.rawValue ?? "none") animated=\(router.lastChange?.animated ?? true)")
        }
        router.push(\Owner.detail, animated: false)
        router.pop(animated: true)
        #expect(seen.values == ["observed push animated=false", "push animated=true"])
        #expect(router.lastChange?.kind == .pop)
        #expect(router.lastChange?.animated == true)
        _ = diagnostics { router.pop() }  // refused: no change
        #expect(router.lastChange?.kind == .pop)
    }

    @Test func pathsAreObservable() {
        let router = Router(start: \Owner.home)
        let changes = Recorder<Int>()
        withObservationTracking {
            _ = router.paths
        } onChange: {
            changes.record(1)
        }
        router.push(\Owner.detail)
        #expect(changes.count == 1)
    }

    @Test func concurrentNavigationKeepsTheStackConsistent() {
        let router = Router()
        let pages: [any KeyPath<Owner, Page> & Sendable] = [\.home, \.detail, \.settings]
        _ = diagnostics {
            DispatchQueue.concurrentPerform(iterations: 8) { worker in
                for step in 0..<2_000 {
                    if (worker + step).isMultiple(of: 2) {
                        router.push(pages[(worker + step) % 3])
                    } else {
                        router.pop()
                    }
                }
            }
        }
        let routes = router.routes
        #expect(Set(routes).count == routes.count)  // never a duplicate
        #expect(routes.count <= 3)
    }
}
