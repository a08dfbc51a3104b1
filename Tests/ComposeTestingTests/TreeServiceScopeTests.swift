import Compose
import ComposeTestSupport
import ComposeTesting
import Foundation
import Testing

// Tests: a tree's service scope (module Compose,
// ComposeTesting) and routes pushed through `@EnclosingRouter`. Every wait is bounded.

/// A service whose emitter a tree follows with `flatMap`.
struct FeedService: Service {
    var name = "app"
    let updates = ValueEmitter<String>()
}

extension Services {
    var feedService: FeedService {
        get { self[FeedService.self] }
        set { self[FeedService.self] = newValue }
    }
}

@Suite struct TreeServiceScopeTests {
    // MARK: Operator closures in a tree

    struct Mapping: Component {
        let greet = SignalEmitter()
        let heard = LockedBox<[String]>([])
        var observers: Void {
            greet.map { services.greeter.name } += { name in heard.mutate { $0.append(name) } }
        }
    }

    /// A `map` closure that observers set up (nonisolated code) reads `services` on the
    /// sender's task, outside the tree's scope: a send by the test itself (or a `StoreTester`,
    /// or another thread) gives it the app's services, though the handler right after it gets
    /// the tester's.
    ///
    /// Promise: "ComponentTester: its `services:` overrides and `clock:` are its own, and its
    /// tree's handlers use them whoever sends (a `StoreTester`, the test itself, another
    /// thread)"; "A component tree keeps the scope it was mounted in: its handlers (what
    /// `observers` set up) run with that scope's services".
    @Test func aMapClosureInATreeReadsTheTestersServicesWhenTheTestSends() {
        let tester = ComponentTester(Mapping(), services: { $0.greeter = Greeter(name: "tester") })
        tester.send(tester.root.greet)  // through the tester: its scope
        tester.root.greet.send()  // the test itself
        #expect(tester.root.heard.value == ["tester", "tester"])
        tester.unmount()
    }

    struct Following: Component {
        let refresh = SignalEmitter()
        let heard = LockedBox<[String]>([])
        var observers: Void {
            refresh.flatMap { services.feedService.updates } += { update in heard.mutate { $0.append(update) } }
        }
    }

    /// The same with `flatMap`, the realistic case: the tree follows the emitter of a service
    /// its closure reads. Sent by the test itself, the closure reads the app's service, so the
    /// tree follows the app's feed, and the tester's feed is never heard.
    @Test func aFlatMapInATreeFollowsTheTestersServiceWhenTheTestSends() {
        let feed = FeedService(name: "tester")
        let tester = ComponentTester(Following(), services: { $0.feedService = feed })
        tester.root.refresh.send()  // the test itself
        feed.updates.send("from the tester's feed")
        Services.current.feedService.updates.send("from the app's feed")
        #expect(tester.root.heard.value == ["from the tester's feed"])
        tester.unmount()
    }

    // MARK: Components created later

    struct Search: Component {
        let query = ValueEmitter<String>()
        let heard = LockedBox<[String]>([])
        var observers: Void {
            // An hour: real time never fires it during a test, only the tester's clock.
            query.debounce(interval: .seconds(3_600)) += { query in
                heard.mutate { $0.append("\(query) (\(services.greeter.name))") }
            }
        }
    }

    struct Shell: Component {
        let search = DynamicComponent<Search>()
        let openSearch = SignalEmitter()
        var observers: Void {
            openSearch += { search.create(Search()) }
        }
    }

    enum Creator: String, CaseIterable, Sendable {
        /// Through the tester (`tester.send`): the tester's scope (control).
        case tester
        /// A tree handler sent to by the test itself: the handler runs in the tree's context.
        case handler
        /// The test creates the component itself.
        case test
        /// Another thread creates it.
        case thread
    }

    /// A dynamic component created after mounting, by the test or another thread rather than by
    /// the tester or a tree handler: its observers are set up outside the tree's scope, so its
    /// `debounce` reads the live clock, not the tester's `clock:`, and advancing the tester's
    /// clock never fires it.
    ///
    /// Promise: "A component tree keeps the scope it was mounted in: its handlers (what
    /// `observers` set up) run with that scope's services and clock wherever the value is sent
    /// from (a test's StoreTester, another thread, a timer)"; "ComponentTester: its `services:`
    /// overrides and `clock:` are its own, and its tree's handlers use them whoever sends".
    @Test(arguments: Creator.allCases)
    func aComponentCreatedLaterDebouncesOnTheTestersClock(creator: Creator) async {
        let clock = TestClock()
        let tester = ComponentTester(Shell(), services: { $0.greeter = Greeter(name: "tester") }, clock: clock)
        switch creator {
        case .tester: tester.send(tester.root.openSearch)
        case .handler: tester.root.openSearch.send()
        case .test: tester.root.search.create(Search())
        case .thread:
            let search = tester.root.search
            let done = Flag()
            startThread {
                search.create(Search())
                done.raise()
            }
            #expect(await eventually(timeout: .seconds(5)) { done.isRaised })
        }
        // In a function of its own, so that the test holds nothing of the created component at
        // `unmount()` (its leak check).
        func check() async {
            guard let search = tester.root.search.component else {
                Issue.record("not created")
                return
            }
            tester.send(search.query, "compose")
            await clock.settle(by: .seconds(3_601))
            let fired = await eventually { !search.heard.value.isEmpty }
            #expect(fired, "created by \(creator): the tester's clock did not fire the debounce")
            #expect(search.heard.value == ["compose (tester)"])
        }
        await check()
        tester.unmount()
    }

    struct ReadsAtSetUp: Component {
        let greet = SignalEmitter()
        let heard = LockedBox<[String]>([])
        var observers: Void {
            let greeter = services.greeter  // read as the observers are set up
            greet += { heard.mutate { $0.append(greeter.name) } }
        }
    }

    struct ReadsAtSetUpShell: Component {
        let child = DynamicComponent<ReadsAtSetUp>()
        var observers: Void { None }
    }

    /// Observers of a component the test creates after mounting are set up with the app's
    /// services; the same component mounted with the tree, or created by a tree handler, gets
    /// the tester's.
    @Test func observersOfAComponentCreatedByTheTestReadTheTestersServices() {
        let tester = ComponentTester(ReadsAtSetUpShell(), services: { $0.greeter = Greeter(name: "tester") })
        tester.root.child.create(ReadsAtSetUp())
        do {
            tester.send(tester.root.child.component!.greet)
            #expect(tester.root.child.component!.heard.value == ["tester"])
        }
        tester.unmount()
    }

    // MARK: Two testers

    struct Relaying: Component {
        let greet = SignalEmitter()
        let forward = LockedBox<SignalEmitter?>(nil)
        let heard = LockedBox<[String]>([])
        var observers: Void {
            greet += {
                heard.mutate { $0.append(services.greeter.name) }
                forward.value?.send()
            }
        }
    }

    /// Two testers in parallel whose trees send to each other's: each tree's handlers read its
    /// own tester's services (control: held in the runs so far).
    @Test(arguments: 0..<8)
    func twoTestersSendingToEachOthersTreesKeepTheirServices(round: Int) async {
        let a = ComponentTester(Relaying(), services: { $0.greeter = Greeter(name: "a\(round)") })
        let b = ComponentTester(Relaying(), services: { $0.greeter = Greeter(name: "b\(round)") })
        a.root.forward.mutate { $0 = b.root.greet }
        let bGreet = b.root.greet
        let aGreet = a.root.greet
        a.send(a.root.greet)
        b.run { aGreet.send() }  // b's scope sends into a's tree, which forwards to b's
        await onThreads(2) { index in
            for _ in 0..<50 { (index == 0 ? aGreet : bGreet).send() }
        }
        #expect(a.root.heard.value.allSatisfy { $0 == "a\(round)" })
        #expect(b.root.heard.value.allSatisfy { $0 == "b\(round)" })
        a.root.forward.mutate { $0 = nil }
        a.unmount()
        b.unmount()
    }
}

// MARK: - Routes

@Suite struct EnclosingRouteHolderTests {
    struct Page: Component {
        var observers: Void { None }
    }

    struct Holder: Component {
        let page = Page()  // zero-size, at offset 0 of the holder
        @EnclosingRouter var router
        let openPage = SignalEmitter()
        var observers: Void {
            openPage += { router.push(\Self.page) }
        }
    }

    struct Owner: RouterComponent {
        let page = Page()  // zero-size, at offset 0 of the owner, as `holder.page` is
        let holder = Holder()
        let router = Router(start: \Self.holder)
        var observers: Void { None }
    }

    /// A zero-size component pushed through an `@EnclosingRouter`: the ambiguity check looks at
    /// the holder only, where `\Holder.page` is unique, but the route is measured from the owner,
    /// where a zero-size `Page` of the owner's own shares the offset. The route is accepted and
    /// leads to the owner's `page`, not to the holder's. (The owner's own key path to the same
    /// spot, `\Owner.page`, is refused as ambiguous.)
    ///
    /// Promise: "A component is one route however it is pushed (by the router's owner through
    /// stored properties, or through an `@EnclosingRouter` from any component on the way)".
    @Test func aZeroSizeComponentPushedThroughTheEnclosingRouterShowsItself() {
        #expect(MemoryLayout<Page>.size == 0)
        #expect(MemoryLayout<Owner>.offset(of: \Owner.page) == MemoryLayout<Owner>.offset(of: \Owner.holder.page))
        let host = ComponentHost(Owner())
        let found = diagnostics { host.root.holder.openPage.send() }
        let pushed = host.root.router.depth == 2
        // Either refused as ambiguous, or it shows the holder's page; never the owner's.
        #expect(
            !pushed || host.visibleIDs == ["Owner", "Owner/holder/page"],
            "pushed \\Holder.page; visible: \(host.visibleIDs); diagnostics: \(found)")
        #expect(!host.visibleIDs.contains("Owner/page"), "the owner's page is shown for the holder's")
        host.unmount()
    }

    struct Note: Component {
        let id: Int
        @EnclosingRouter var router
        let reopen = SignalEmitter()
        var observers: Void {
            reopen += { router.push(\Self.self) }
        }
    }

    struct Notes: RouterComponent {
        let note = DynamicComponent<Note>()
        let pages = InstanceComponent<Note>()
        let router = Router()
        var observers: Void { None }
    }

    // Two levels down inside a created component: one route from every holder (control).

    struct Editor: Component {
        @EnclosingRouter var router
        let reopen = SignalEmitter()
        var observers: Void {
            reopen += { router.push(\Self.self) }
        }
    }

    struct Section: Component {
        let title = SignalEmitter()
        let editor = Editor()
        @EnclosingRouter var router
        let edit = SignalEmitter()
        var observers: Void {
            edit += { router.push(\Self.editor) }
        }
    }

    struct Document: Component {
        let banner = SignalEmitter()
        let section = Section()
        @EnclosingRouter var router
        let edit = SignalEmitter()
        var observers: Void {
            edit += { router.push(\Self.section.editor) }
        }
    }

    struct Documents: RouterComponent {
        let document = DynamicComponent<Document>()
        let router = Router()
        var observers: Void { None }
    }

    @Test func twoLevelsDownInACreatedComponentOneRouteFromEveryHolder() {
        let host = ComponentHost(Documents())
        host.root.document.create(Document())
        #expect(host.root.router.push(\Documents.document))
        let document = host.root.document.component!
        document.section.edit.send()
        #expect(host.root.router.depth == 2)
        let found = diagnostics {
            document.edit.send()
            document.section.editor.reopen.send()
        }
        #expect(found.count == 2)
        #expect(host.root.router.depth == 2)
        #expect(host.root.router.pop())
        #expect(host.root.router.depth == 1)
        host.unmount()
    }
}

// MARK: - A tree in a sandbox

@Suite(.composeSandbox(clock: .test)) struct SandboxClockTests {
    struct Clocked: Component {
        let ask = SignalEmitter()
        let offsets = LockedBox<[Duration]>([])
        var observers: Void {
            ask += { offsets.mutate { $0.append(services.clock.now.offset) } }
        }
    }

    /// A tester made in a sandbox with a test clock, without a `clock:` of its own ("By default,
    /// the clock of the enclosing scope"): its tree's handler reads `services.clock` as the
    /// sandbox's test clock when the tester sends, and as a fresh continuous clock when another
    /// thread sends: the tree keeps the scope's services but not its clock.
    ///
    /// Promise: "A component tree keeps the scope it was mounted in: its handlers (what
    /// `observers` set up) run with that scope's services and clock wherever the value is sent
    /// from (a test's `StoreTester`, another thread, a timer)".
    @Test func aTreeInASandboxReadsTheSandboxClockWhenAnotherThreadSends() async {
        guard let testClock = ComposeSandbox.current?.testClock else {
            Issue.record("no sandbox test clock")
            return
        }
        await testClock.advance(by: .seconds(100))
        let tester = ComponentTester(Clocked(), services: { $0.greeter = Greeter(name: "tester") })
        tester.send(tester.root.ask)  // through the tester
        let ask = tester.root.ask
        let done = Flag()
        startThread {
            ask.send()  // another thread
            done.raise()
        }
        #expect(await eventually(timeout: .seconds(5)) { done.isRaised })
        let offsets = tester.root.offsets.value
        #expect(offsets.count == 2)
        #expect(
            offsets.allSatisfy { $0 >= .seconds(100) },
            "services.clock.now in the tree's handler: \(offsets) (the sandbox's clock reads 100 s)")
        tester.unmount()
    }
}
