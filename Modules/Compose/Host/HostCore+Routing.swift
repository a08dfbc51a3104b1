import ComposeEmitters
import ComposeMachinery
import ComposeRouting
import Foundation

// Routes: where a router's route leads in the tree, how many routes lead to each node, and
// what a router's change does to the tree.

extension HostCore {
    func problem(with route: Route, on router: Router) -> RoutingError? {
        switch resolve(route, on: router) {
        case .node, .pending:
            return nil
        case .notCreated(let reason):
            return RoutingError(.notCreated, route: route.description, reason: reason)
        case .missing(let reason):
            return RoutingError(.notRoutable, route: route.description, reason: reason)
        }
    }

    enum Resolution {
        case node(ComponentNode)
        /// Created, and not bound yet (its creation is being processed).
        case pending
        case notCreated(String)
        case missing(String)
    }

    /// Where `route` leads in the tree.
    func resolve(_ route: Route, on router: Router?) -> Resolution {
        switch locate(route, on: router) {
        case .node(let node): .node(node)
        case .missing(let reason): .missing(reason)
        case .slot(let index, let field, let node, let instance): resolveSlot(index, field: field, instance: instance, in: node)
        }
    }

    /// Where a route's location is in the tree: a component, or a field of created components.
    enum Location {
        case node(ComponentNode)
        case slot(index: Int, field: ComponentLayout.Field, node: ComponentNode, instance: UUID?)
        case missing(String)
    }

    func locate(_ route: Route, on router: Router?) -> Location {
        let location = route.location
        let anchor: ComponentNode? = tree.withLock { tree in
            if let identity = location.anchor { return tree.nodes[identity] }
            return router.flatMap { tree.routerOwners[ObjectIdentifier($0)] }
        }
        guard let anchor else { return .missing("the component it is written from is not in the tree") }
        return locate(
            offset: location.offset, target: location.target, instance: route.instance, in: anchor, name: location.targetName)
    }

    func locate(offset: Int, target: ObjectIdentifier, instance: UUID?, in node: ComponentNode, name: String) -> Location {
        if offset == 0 && target == node.type { return .node(node) }
        // A field of this component first: a zero-size one shares its offset with the field
        // that follows it, and must not be looked for inside that field. (Routers refuse the
        // key paths that could name several fields; see `Router.ambiguity`.)
        for (index, field) in node.layout.fields.enumerated()
        where field.offset == offset && ObjectIdentifier(field.type) == target {
            switch field.kind {
            case .component:
                return tree.withLock { $0[node].staticChildren[index] }.map(Location.node) ?? .missing("not bound")
            case .dynamic, .instance:
                return .slot(index: index, field: field, node: node, instance: instance)
            case .enclosingRouter:
                return .missing("it is an @EnclosingRouter, not a component")
            }
        }
        for (index, field) in node.layout.fields.enumerated()
        where field.kind == .component && field.offset <= offset && offset < field.offset + field.size {
            if let child = tree.withLock({ $0[node].staticChildren[index] }) {
                return locate(offset: offset - field.offset, target: target, instance: instance, in: child, name: name)
            }
        }
        return .missing("\(node.typeName) has no component of type \(name) there")
    }

    /// The entry of a dynamic or instance component a route names, and the slot it lives in.
    func slotEntry(_ field: ComponentLayout.Field, instance: UUID?, in node: ComponentNode) -> (any ComponentSlot, SlotEntry.ID)?
    {
        switch field.kind {
        case .dynamic: instance == nil ? (field.slot(of: node.component), .single) : nil
        case .instance: instance.map { (field.slot(of: node.component), .instance($0)) }
        default: nil
        }
    }

    func resolveSlot(_ index: Int, field: ComponentLayout.Field, instance: UUID?, in node: ComponentNode) -> Resolution {
        guard let (slot, wanted) = slotEntry(field, instance: instance, in: node) else {
            return field.kind == .dynamic
                ? .missing("a DynamicComponent has no instances") : .missing("an InstanceComponent needs an instance id")
        }
        let bound = tree.withLock { $0[node].slotChildren[index]?.node(wanted) }
        guard let entry = slot.entry(wanted) else {
            switch wanted {
            case .single: return .notCreated("\(field.name) was never created (call create(_:) first)")
            case .instance(let id): return .notCreated("\(field.name) has no instance \(id)")
            }
        }
        if let bound, bound.slotEntry?.entry.generation == entry.generation { return .node(bound) }
        return .pending
    }

    /// Checks `route` and, if it leads to a created component, holds that component's entry for
    /// the router, in one step of its slot's lock: a destroy made meanwhile is refused, or the
    /// entry is gone and the route refused.
    func reserve(_ route: Route, on router: Router) -> RoutingError? {
        if let problem = problem(with: route, on: router) { return problem }
        guard case .slot(_, let field, let node, let instance) = locate(route, on: router),
            let (slot, id) = slotEntry(field, instance: instance, in: node)
        else { return nil }
        guard slot.reserve(id) else {
            return RoutingError(.notCreated, route: route.description, reason: "\(field.name) was destroyed meanwhile")
        }
        return nil
    }

    /// Releases what ``reserve(_:on:)`` held for `routes`.
    func release(_ routes: [Route], on router: Router) {
        for route in routes {
            guard case .slot(_, let field, let node, let instance) = locate(route, on: router),
                let (slot, id) = slotEntry(field, instance: instance, in: node)
            else { continue }
            slot.release(id)
        }
    }

    func resolveNode(_ route: Route, on router: Router?) -> ComponentNode? {
        if case .node(let node) = resolve(route, on: router) { return node }
        return nil
    }

    func countRoutes(_ routes: [Route], on router: Router, by delta: Int) {
        for route in routes {
            guard let node = resolveNode(route, on: router) else { continue }
            tree.withLock { tree in
                let count = tree.routed[ObjectIdentifier(node), default: 0] + delta
                tree.routed[ObjectIdentifier(node)] = count > 0 ? count : nil
            }
        }
    }

    func routerChanged(_ router: Router, _ change: RouteChange) {
        guard let owner = tree.withLock({ $0.routerOwners[ObjectIdentifier(router)] }) else { return }
        let removedNodes = change.popped.compactMap { resolveNode($0, on: router) }
        countRoutes(change.popped, on: router, by: -1)
        countRoutes(change.pushed, on: router, by: 1)
        if automaticVisibility, tree.withLock({ $0[owner].isVisible }) {
            let oldTop = change.previousTop.flatMap { resolveNode($0, on: router) }
            let newTop = change.top.flatMap { resolveNode($0, on: router) }
            if oldTop !== newTop {
                if let oldTop, oldTop !== owner { conceal(oldTop, in: owner) }
                if let newTop, newTop !== owner { reveal(newTop, in: owner) }
            }
        }
        // Created components whose last route was popped are destroyed.
        for node in removedNodes where node.slotEntry != nil {
            let stillRouted = tree.withLock { $0.routed[ObjectIdentifier(node)] != nil }
            guard !stillRouted, let parent = node.parentNode, let slotEntry = node.slotEntry else { continue }
            let field = parent.layout.fields[slotEntry.field]
            let slot = field.slot(of: parent.component)
            // Unless a route pushed since holds it again.
            if slot.removeIfUnreserved(slotEntry.entry.id) {
                destroy(node)
                slot.announce(created: false, slotEntry.entry)
            }
        }
    }
}
