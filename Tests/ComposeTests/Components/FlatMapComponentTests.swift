import ComposeTestSupport
import ComposeTesting
import Foundation
import Synchronization
import Testing

@testable import Compose

// flatMap runs its transform and subscribes to each inner emitter as the component that made it,
// whoever delivers the outer value: no false ownership report, and a child's didAppear found.

/// An emitter no component owns (a service's, say).
let unownedTrigger = SignalEmitter()

/// Follows `unownedTrigger` with a flatMap onto an emitter of its own.
struct UnownedTriggerFollower: Component {
    let own = ValueEmitter<Int>()
    let heard = LockedBox<[Int]>([])
    var observers: Void {
        unownedTrigger.flatMap { own } += { value in heard.mutate { $0.append(value) } }
    }
}

/// Sends the shared trigger while its observers are evaluated (as a handler hearing a current
/// value might): it subscribes to nothing of anyone else's.
struct UnownedTriggerPoker: Component {
    let tap = SignalEmitter()
    var observers: Void {
        unownedTrigger.send()
    }
}

struct FollowerAndPoker: Component {
    let follower = UnownedTriggerFollower()
    let poker = UnownedTriggerPoker()
    var observers: Void { None }
}

@Suite(.serialized) struct FlatMapOwnershipAuditTests {
    /// EmittersAndDelivery.md: "`flatMap` subscribes to each inner emitter in the context its own
    /// subscription was made in, whoever delivers the outer value". ComponentsAndTheHost.md: "a
    /// component observing an emitter of its parent is reported" (and another component's). Here
    /// `UnownedTriggerPoker` observes nothing of anyone's; `UnownedTriggerFollower`'s flatMap subscribes to its own emitter.
    /// Neither deserves a diagnostic.
    @Test func aSiblingsSendDuringMountDoesNotMakeAFlatMapsInnerSubscriptionLookLikeItsOwn() {
        let found = diagnostics {
            let host = ComponentHost(FollowerAndPoker())
            host.unmount()
        }
        #expect(found.isEmpty, "\(found)")
    }

    /// The same under a ComponentTester: "A Compose diagnostic ... fails the test in the tester's
    /// own operations" must not fail a correct tree.
    @Test func aTesterMountingTheTreeReportsNothing() {
        let tester = ComponentTester(FollowerAndPoker())
        tester.unmount()
    }
}

/// An emitter no component owns.
let appearTrigger = SignalEmitter()

/// Follows its child's `didAppear` through a flatMap on a shared trigger.
struct ChildAppearFollower: Component {
    let child = WatchedLeaf()
    let heard = LockedBox<Int>(0)
    var observers: Void {
        appearTrigger.flatMap { child.didAppear } += { heard.mutate { $0 += 1 } }
    }
}

struct AppearTriggerPoker: Component {
    let tap = SignalEmitter()
    var observers: Void {
        appearTrigger.send()
    }
}

struct AppearFollowingRoot: Component {
    let follower = ChildAppearFollower()
    let poker = AppearTriggerPoker()
    var observers: Void { None }
}

@Suite(.serialized) struct FlatMapComponentContextTests {
    /// "`flatMap` subscribes to each inner emitter in the context its own subscription was made
    /// in, whoever delivers the outer value". The transform reads the child's `didAppear`, which
    /// Component's doc resolves "read in `observers` (the component's own, or an ancestor's for a
    /// child) ... in that part of the tree". Delivered by a sibling's observers during mount, it must
    /// still find the follower's child.
    @Test func aFlatMapFollowingAChildsDidAppearHearsItWhoeverDeliveredTheTrigger() throws {
        let (host, found) = recordingDiagnostics { ComponentHost(AppearFollowingRoot(), visibility: .manual) }
        #expect(found.isEmpty, "\(found)")
        let root = try #require(host.rootNode)
        let follower = try #require(host.nodes.first { $0.id.hasSuffix("/follower") })
        let child = try #require(host.nodes.first { $0.id.hasSuffix("/follower/child") })
        host.setVisible(root, true)
        host.setVisible(follower, true)
        host.setVisible(child, true)
        #expect(host.root.follower.heard.value == 1)
        host.unmount()
    }
}

// MARK: Diagnostics from main-actor handlers during tester operations
