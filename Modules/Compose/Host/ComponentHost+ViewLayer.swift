import ComposeMachinery
import ComposeRouting
import Foundation

// What a view layer needs from a host, in public API: from a router's route to the node and the
// component it shows, from a component value to its node, and which children a node shows and
// why. The reference adapter in `Tests/ReferenceAdapterTests` is written on these alone.

extension ComponentHost {
    /// The node that `route`, on `router`'s stack, shows: what a navigation destination renders.
    ///
    /// Works for every route a router of this tree holds: a stored component, a created
    /// `DynamicComponent`, an `InstanceComponent`'s instance, and routes pushed through
    /// `@EnclosingRouter` (rooted in a nested component).
    ///
    /// - Returns: `nil` if `router` is not part of this tree or the route leads nowhere (a
    ///   dynamic component destroyed meanwhile).
    public func node(for route: Route, on router: Router) -> ComponentNode? {
        guard router.resolver === core else { return nil }
        return core.resolveNode(route, on: router)
    }

    /// The component that `route`, on `router`'s stack, shows; see ``node(for:on:)``.
    public func component(for route: Route, on router: Router) -> (any Component)? {
        node(for: route, on: router)?.value
    }

    /// The node of `component`, a value of a component mounted in this tree (a copy of a stored
    /// child, a dynamic component's `component`, an instance).
    ///
    /// A component is found by what it holds: its emitters, stores, routers and slots. Two
    /// mounted components of one type that hold none of these cannot be told apart; then, and
    /// when the component is not in this tree, the result is `nil`.
    public func node<C: Component>(of component: C) -> ComponentNode? {
        let words = ComponentStorage.words(at: ComponentLayout.of(C.self).referenceWords, of: component)
        let type = ObjectIdentifier(C.self)
        let matches = nodes.filter { $0.type == type && $0.identityWords == words }
        return matches.count == 1 ? matches[0] : nil
    }

    /// The children `node` shows when it is visible, in order, by the host's rule (see
    /// ``ComponentNode/ChildVisibility``): what a view adapter with manual visibility makes
    /// visible under a node, whether or not `node` is visible now.
    ///
    /// Observable: a view (or `withObservationTracking`) that reads it is told when the answer may
    /// have changed: a route pushed or popped on the node's router, a component created or
    /// destroyed under it.
    public func shownChildren(of node: ComponentNode) -> [ComponentNode] {
        guard node.host === core else { return [] }
        node.childrenSignal.access()
        if let router = node.router { _ = router.routes }  // Observation of the stack.
        return core.visibleChildren(of: node)
    }
}

extension ComponentNode {
    /// Which of its children a node shows when it is visible: the rule ``ComponentHost`` applies,
    /// and a view adapter follows.
    public enum ChildVisibility: Sendable, Equatable {
        /// A router component: its router's top route only (nothing when a router with default
        /// content has an empty stack: the owner itself is the content).
        case routerTop
        /// A component with an `@EnclosingRouter`: none by itself; its children appear when the
        /// enclosing router shows them (pushed through it).
        case throughEnclosingRouter
        /// Any other component: every child, in declaration order (created dynamic components and
        /// instances included).
        case all
    }

    /// The rule by which this node shows its children.
    public var childVisibility: ChildVisibility {
        if router != nil { return .routerTop }
        if layout.hasEnclosingRouter { return .throughEnclosingRouter }
        return .all
    }
}

extension ComponentNode {
    /// Where a node's component comes from: what a view adapter needs to present it (inline, in
    /// a sheet, as one of several instances).
    public enum Origin: Sendable, Equatable {
        /// A stored property of its parent (or the root).
        case stored
        /// The created component of a `DynamicComponent` of its parent.
        case dynamic
        /// The instance `id` of an `InstanceComponent` of its parent.
        case instance(UUID)
    }

    /// Where this node's component comes from.
    public var origin: Origin {
        guard let slotEntry else { return .stored }
        switch slotEntry.entry.id {
        case .single: return .dynamic
        case .instance(let id): return .instance(id)
        }
    }
}
