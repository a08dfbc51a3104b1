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
        let location = route.location
        let anchor: ComponentNode? = tree.withLock { tree in
            if let identity = location.anchor { return tree.nodes[identity] }
            return router.flatMap { tree.routerOwners[ObjectIdentifier($0)] }
        }
        guard let anchor else { return .missing("the component it is written from is not in the tree") }
        return resolve(
            offset: location.offset, target: location.target, instance: route.instance, in: anchor, name: location.targetName)
    }

    func resolve(offset: Int, target: ObjectIdentifier, instance: UUID?, in node: ComponentNode, name: String) -> Resolution {
        if offset == 0 && target == node.type { return .node(node) }
        // A field of this component first: a zero-size one shares its offset with the field
        // that follows it, and must not be looked for inside that field. (Routers refuse the
        // key paths that could name several fields; see `Router.ambiguity`.)
        for (index, field) in node.layout.fields.enumerated()
        where field.offset == offset && ObjectIdentifier(field.type) == target {
            switch field.kind {
            case .component:
                return tree.withLock { $0[node].staticChildren[index] }.map(Resolution.node) ?? .missing("not bound")
            case .dynamic, .instance:
                return resolveSlot(index, field: field, instance: instance, in: node)
            case .enclosingRouter:
                return .missing("it is an @EnclosingRouter, not a component")
            }
        }
        for (index, field) in node.layout.fields.enumerated()
        where field.kind == .component && field.offset <= offset && offset < field.offset + field.size {
            if let child = tree.withLock({ $0[node].staticChildren[index] }) {
                return resolve(offset: offset - field.offset, target: target, instance: instance, in: child, name: name)
            }
        }
        return .missing("\(node.typeName) has no component of type \(name) there")
    }

    func resolveSlot(_ index: Int, field: ComponentLayout.Field, instance: UUID?, in node: ComponentNode) -> Resolution {
        let slot = field.slot(of: node.component)
        let wanted: SlotEntry.ID
        switch field.kind {
        case .dynamic:
            guard instance == nil else { return .missing("a DynamicComponent has no instances") }
            wanted = .single
        default:
            guard let instance else { return .missing("an InstanceComponent needs an instance id") }
            wanted = .instance(instance)
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

    /// Whether a route on some router's stack leads to `slot`'s entry `id`.
    func isRouted(_ slot: any ComponentSlot, _ id: SlotEntry.ID) -> Bool {
        guard let attachment = slot.attachment, let parent = attachment.parent else { return false }
        return tree.withLock { tree in
            guard let node = tree[parent].slotChildren[attachment.field]?.node(id) else {
                return false
            }
            return tree.routed[ObjectIdentifier(node)] != nil
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
            if slot.remove(slotEntry.entry.id) {
                destroy(node)
                slot.announce(created: false, slotEntry.entry)
            }
        }
    }
}
