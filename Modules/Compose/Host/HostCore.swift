import ComposeEmitters
import ComposeMachinery
import ComposeRouting
import Foundation

/// The machinery of a ``ComponentHost``, independent of the root's type.
///
/// ## Order
/// Every change of the tree (a router's navigation, a component created or destroyed,
/// unmounting) is an event processed one at a time, in the order they happened, by the relay's
/// serial delivery: on the thread that caused it, or, if an event is being processed (a
/// lifecycle handler navigated, say), right after it. Lifecycle emitters and `observers` run
/// during processing, never under a lock; the lock guards the tree's bookkeeping for readers
/// on other threads.
final class HostCore: RouteResolving, @unchecked Sendable {  // Mutable state under `tree`'s lock.
    enum Event: Sendable {
        case routerChanged(Router, RouteChange)
        case slotChanged(any ComponentSlot, SlotChange)
        case setVisible(ComponentNode, Bool)
        case unmount
    }

    struct Tree {
        var root: ComponentNode?
        var isMounted = false
        /// Every bound node, by identity (for routes anchored at a component).
        var nodes: [ObjectIdentifier: ComponentNode] = [:]
        /// The node owning each router.
        var routerOwners: [ObjectIdentifier: ComponentNode] = [:]
        /// The node owning each emitter and store (the ownership check).
        var owners: [ObjectIdentifier: ComponentNode] = [:]
        /// How many routes on router stacks lead to each node.
        var routed: [ObjectIdentifier: Int] = [:]
        /// How many times a node's visibility changed under manual visibility (see
        /// `NodeState.appearedAt`).
        var visibilityChanges: UInt64 = 0
    }

    let label: String
    let automaticVisibility: Bool
    let tree = LockedState(Tree())
    /// The view problems reported for this tree (see ``ComponentHost/report(_:showing:fileID:line:)``).
    let reportedViewProblems = LockedState(Set<ReportedViewProblem>())
    private let events: Relay<Event>
    /// What the tree's handlers run inside: the services of the override scope the host was made
    /// in (a test's, a preview's); `nil` outside any.
    let handlerContext: HandlerContext?
    /// The clock of the scope the host was made in (`services.clock` there): what a session
    /// recording reads time from.
    let clock: ComposeClock

    /// - Parameter onMainActor: Whether every change is applied on the main actor (a host made by
    ///   main-actor code), or on the thread that makes it.
    init(label: String, automaticVisibility: Bool, onMainActor: Bool = false) {
        self.label = label
        self.automaticVisibility = automaticVisibility
        self.handlerContext = ServiceStorage.scoped?.handlerContext
        self.clock = Services.current.clock
        self.events = Relay(running: onMainActor ? .mainActor : .inline)
        events.start { [weak self] event in self?.process(event) }
    }

    deinit {
        events.stop()
    }

    // MARK: Events

    func send(_ event: Event) {
        events.send(event)
    }

    func slotChanged(_ slot: any ComponentSlot, _ change: SlotChange) {
        send(.slotChanged(slot, change))
    }

    func router(_ router: Router, didChange change: RouteChange) {
        send(.routerChanged(router, change))
    }

    /// Processes `event` as a consequence (see `EventLog.Event.isConsequence`), logging on or not:
    /// what lifecycle handlers send, and the tasks they start send, follows from the change.
    private func process(_ event: Event) {
        EventLog.alwaysAsConsequence {
            switch event {
            case .routerChanged(let router, let change): routerChanged(router, change)
            case .slotChanged(let slot, let change): applySlotChange(slot, change)
            case .setVisible(let node, let visible): applyVisibility(node, visible)
            case .unmount: tearDown()
            }
        }
    }

    var isMounted: Bool {
        tree.withLock { $0.isMounted }
    }
}

extension ComponentNode {
    func isBoundNow(in host: HostCore) -> Bool {
        host.tree.withLock { $0[self].isBound }
    }
}
