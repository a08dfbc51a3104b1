import ComposeEmitters
import ComposeMachinery
import ComposeRouting
import Foundation

// Mounting: building the nodes of a tree, binding its routers and `@EnclosingRouter`s, and
// evaluating its observers.

extension HostCore {
    /// Mounts `root`: builds the tree, sets up every observer, then shows the root.
    func mount(_ root: any Component) {
        let startup = root as? any StartupComponent
        startup?.willBindRootComponent()
        let node = ComponentNode(
            component: root, name: ComponentLayout.of(type(of: root)).typeName, parent: nil, slotEntry: nil, host: self)
        tree.withLock { tree in
            tree.root = node
            tree.isMounted = true
        }
        build(node)
        bindRouters(in: node)
        evaluateObservers(in: node)
        startup?.didBindRootComponent()
        if automaticVisibility { show(node) }
    }

    /// Creates the nodes of `node`'s subtree (not yet observing) and registers them.
    func build(_ node: ComponentNode) {
        var owned = ComponentStorage.sources(node.layout.owned, of: node.component)
        if let router = node.router { owned += router.subscriptionIdentities }
        tree.withLock { tree in
            tree.nodes[ObjectIdentifier(node)] = node
            tree[node].ownedIdentities = owned
            // The outermost holder owns an emitter: one handed down to a child stays its
            // parent's.
            for identity in owned where tree.owners[identity] == nil { tree.owners[identity] = node }
            if let router = node.router { tree.routerOwners[ObjectIdentifier(router)] = node }
            tree[node].isBound = true
        }
        LiveNodes.add(node)
        for (index, field) in node.layout.fields.enumerated() {
            switch field.kind {
            case .component:
                let child = ComponentNode(
                    component: field.component(of: node.component),
                    name: field.name, parent: node, slotEntry: nil, host: self
                )
                tree.withLock { $0[node].staticChildren[index] = child }
                build(child)
            case .dynamic, .instance:
                let slot = field.slot(of: node.component)
                slot.attach(SlotAttachment(host: self, parent: node, field: index))
                for entry in slot.entries {
                    let child = makeSlotNode(entry, field: index, in: node)
                    tree.withLock { $0[node].slotChildren[index, default: SlotChildren()].append(child) }
                    build(child)
                }
            case .enclosingRouter:
                break  // Bound by `bindRouters`, once every router of the tree is known.
            }
        }
    }

    static func slot(of value: Any) -> any ComponentSlot {
        if let dynamic = value as? any DynamicComponentProtocol { return dynamic.slot }
        return (value as! any InstanceComponentProtocol).slot
    }

    func makeSlotNode(_ entry: SlotEntry, field: Int, in parent: ComponentNode) -> ComponentNode {
        ComponentNode(
            component: entry.component, name: parent.layout.fields[field].name,
            parent: parent, slotEntry: (field, entry), host: self
        )
    }

    /// Binds the routers and `@EnclosingRouter`s of `node`'s subtree, and counts the routes on
    /// the stacks of its routers.
    func bindRouters(in node: ComponentNode) {
        for descendant in subtree(of: node) {
            if let router = descendant.router {
                router.bind(owner: Swift.type(of: descendant.component), resolver: self)
                validateStack(of: router)
                let routes = router.routes
                countRoutes(routes, on: router, by: 1)
                // Routes put on the stack before the host was there hold their components too.
                for route in routes { _ = reserve(route, on: router) }
            }
            for field in descendant.layout.fields where field.kind == .enclosingRouter {
                let wrapper = ComponentStorage.field(field.type, at: field.offset, of: descendant.component) as! EnclosingRouter
                guard let owner = routerOwner(enclosing: descendant), let router = owner.router else {
                    wrapper.binding.unbind()
                    continue
                }
                let anchor = EnclosingRouterBinding.Anchor(
                    identity: ObjectIdentifier(descendant), type: descendant.type, name: descendant.typeName,
                    routeBase: routeBase(of: descendant, in: owner)
                )
                wrapper.binding.bind(router, anchor: anchor)
            }
        }
    }

    /// Resets a router whose stack has a route that leads nowhere (a start route to a dynamic
    /// component that is not created, say) to the routes before it, and reports it.
    func validateStack(of router: Router) {
        let routes = router.routes
        guard
            let bad = routes.firstIndex(where: { route in
                switch resolve(route, on: router) {
                case .node, .pending: false
                case .notCreated, .missing: true
                }
            })
        else { return }
        let reason: String
        switch resolve(routes[bad], on: router) {
        case .notCreated(let why), .missing(let why): reason = why
        case .node, .pending: reason = ""
        }
        Diagnostics.report(
            domain: "routing", "\(router.label): route \(routes[bad]) leads nowhere (\(reason)); the stack is cut below it")
        router.reset(to: Array(routes.prefix(bad)))
    }

    /// The nearest ancestor of `node` that is a router component.
    func routerOwner(enclosing node: ComponentNode) -> ComponentNode? {
        var ancestor = node.parentNode
        while let current = ancestor {
            if current.router != nil { return current }
            ancestor = current.parentNode
        }
        return nil
    }

    /// Where routes pushed through `node`'s `@EnclosingRouter` are measured from: `owner`
    /// (`nil`) when `node` is stored in it through stored components, with `node`'s offset
    /// there; otherwise the nearest created component `node` is stored in, and its offset there.
    /// One component is one route however it was pushed.
    func routeBase(of node: ComponentNode, in owner: ComponentNode) -> (anchor: ObjectIdentifier?, offset: Int) {
        var offset = 0
        var current = node
        while current !== owner {
            guard current.slotEntry == nil, let parent = current.parentNode,
                let index = tree.withLock({ tree in tree[parent].staticChildren.first { $0.value === current }?.key })
            else {
                return (ObjectIdentifier(current), offset)
            }
            offset += parent.layout.fields[index].offset
            current = parent
        }
        return (nil, offset)
    }

    /// Evaluates the observers of `node`'s subtree, parents first, each in its own scope and
    /// context, with the ownership check in debug builds.
    func evaluateObservers(in node: ComponentNode) {
        // In the tree's service scope and clock, whoever mounts or creates the component.
        guard let handlerContext else { return evaluateObserversHere(in: node) }
        handlerContext.around { evaluateObserversHere(in: node) }
    }

    private func evaluateObserversHere(in node: ComponentNode) {
        for descendant in subtree(of: node) {
            ComponentContext.run(as: descendant) {
                #if DEBUG
                RegistrationAudit.$auditor.withValue(auditor(for: descendant)) {
                    descendant.scope.run { _ = descendant.component.observers }
                }
                #else
                descendant.scope.run { _ = descendant.component.observers }
                #endif
            }
        }
    }

    /// `node` and its descendants, parents first.
    func subtree(of node: ComponentNode) -> [ComponentNode] {
        var result: [ComponentNode] = []
        var stack = [node]
        while let next = stack.popLast() {
            result.append(next)
            stack.append(contentsOf: tree.withLock { $0[next].orderedChildren(of: next.layout) }.reversed())
        }
        return result
    }
}
