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
    }

    let label: String
    let automaticVisibility: Bool
    let tree = LockedState(Tree())
    private let events = Relay<Event>()

    init(label: String, automaticVisibility: Bool) {
        self.label = label
        self.automaticVisibility = automaticVisibility
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

    private func process(_ event: Event) {
        switch event {
        case .routerChanged(let router, let change): routerChanged(router, change)
        case .slotChanged(let slot, let change): applySlotChange(slot, change)
        case .setVisible(let node, let visible): applyVisibility(node, visible)
        case .unmount: tearDown()
        }
    }

    // MARK: Mounting

    /// Mounts `root`: builds the tree, sets up every observer, then shows the root.
    func mount(_ root: any Component) {
        let startup = root as? any StartupComponent
        startup?.willBindRootComponent()
        let node = ComponentNode(component: root, name: ComponentLayout.of(type(of: root)).typeName, parent: nil, slotEntry: nil, host: self)
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
    private func build(_ node: ComponentNode) {
        var owned = ComponentStorage.sources(node.layout.owned, of: node.component)
        if let router = node.router { owned += router.subscriptionIdentities }
        tree.withLock { tree in
            tree.nodes[ObjectIdentifier(node)] = node
            node.ownedIdentities = owned
            // The outermost holder owns an emitter: one handed down to a child stays its
            // parent's.
            for identity in owned where tree.owners[identity] == nil { tree.owners[identity] = node }
            if let router = node.router { tree.routerOwners[ObjectIdentifier(router)] = node }
            node.isBound = true
        }
        LiveNodes.add(node)
        for (index, field) in node.layout.fields.enumerated() {
            switch field.kind {
            case .component:
                let child = ComponentNode(
                    component: field.component(of: node.component),
                    name: field.name, parent: node, slotEntry: nil, host: self
                )
                tree.withLock { _ in node.staticChildren[index] = child }
                build(child)
            case .dynamic, .instance:
                let slot = field.slot(of: node.component)
                slot.attach(SlotAttachment(host: self, parent: node, field: index))
                for entry in slot.entries {
                    let child = makeSlotNode(entry, field: index, in: node)
                    tree.withLock { _ in node.slotChildren[index, default: SlotChildren()].append(child) }
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

    private func makeSlotNode(_ entry: SlotEntry, field: Int, in parent: ComponentNode) -> ComponentNode {
        ComponentNode(
            component: entry.component, name: parent.layout.fields[field].name,
            parent: parent, slotEntry: (field, entry), host: self
        )
    }

    /// Binds the routers and `@EnclosingRouter`s of `node`'s subtree, and counts the routes on
    /// the stacks of its routers.
    private func bindRouters(in node: ComponentNode) {
        for descendant in subtree(of: node) {
            if let router = descendant.router {
                router.bind(owner: Swift.type(of: descendant.component), resolver: self)
                validateStack(of: router)
                countRoutes(router.routes, on: router, by: 1)
            }
            for field in descendant.layout.fields where field.kind == .enclosingRouter {
                let wrapper = ComponentStorage.field(field.type, at: field.offset, of: descendant.component) as! EnclosingRouter
                let anchor = EnclosingRouterBinding.Anchor(
                    identity: ObjectIdentifier(descendant), type: descendant.type, name: descendant.typeName
                )
                wrapper.binding.bind(enclosingRouter(of: descendant), anchor: anchor)
            }
        }
    }

    /// Resets a router whose stack has a route that leads nowhere (a start route to a dynamic
    /// component that is not created, say) to the routes before it, and reports it.
    private func validateStack(of router: Router) {
        let routes = router.routes
        guard let bad = routes.firstIndex(where: { route in
            switch resolve(route, on: router) {
            case .node, .pending: false
            case .notCreated, .missing: true
            }
        }) else { return }
        let reason: String
        switch resolve(routes[bad], on: router) {
        case .notCreated(let why), .missing(let why): reason = why
        case .node, .pending: reason = ""
        }
        Diagnostics.report(domain: "routing", "\(router.label): route \(routes[bad]) leads nowhere (\(reason)); the stack is cut below it")
        router.reset(to: Array(routes.prefix(bad)))
    }

    /// The router of the nearest ancestor of `node` that is a router component.
    private func enclosingRouter(of node: ComponentNode) -> Router? {
        var ancestor = node.parent
        while let current = ancestor {
            if let router = current.router { return router }
            ancestor = current.parent
        }
        return nil
    }

    /// Evaluates the observers of `node`'s subtree, parents first, each in its own scope and
    /// context, with the ownership check in debug builds.
    private func evaluateObservers(in node: ComponentNode) {
        for descendant in subtree(of: node) {
            ComponentContext.$current.withValue(descendant) {
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

    #if DEBUG
    /// Reports a subscription from `node`'s observers to an emitter or store of a component
    /// outside `node`'s subtree.
    private func auditor(for node: ComponentNode) -> RegistrationAudit.Auditor {
        RegistrationAudit.Auditor { [weak self, weak node] (identity: ObjectIdentifier) in
            guard let self, let node, let owner = self.tree.withLock({ $0.owners[identity] }), !owner.isWithin(node) else {
                return
            }
            let relation = node.isWithin(owner) ? "an enclosing component" : "another component"
            Diagnostics.report(
                domain: "components",
                "\(node.typeName).observers subscribes to an emitter or store of \(owner.id) (\(relation)): "
                    + "a component observes only its own emitters and its descendants'"
            )
        }
    }
    #endif

    /// `node` and its descendants, parents first.
    func subtree(of node: ComponentNode) -> [ComponentNode] {
        var result: [ComponentNode] = []
        var stack = [node]
        while let next = stack.popLast() {
            result.append(next)
            stack.append(contentsOf: tree.withLock { _ in next.orderedChildren }.reversed())
        }
        return result
    }

    // MARK: Visibility

    /// The children of a visible `node` that are visible (see ``ComponentHost``'s
    /// "Visibility"): a router component shows its top route; a component that navigates
    /// through an `@EnclosingRouter` shows its children only when they are routed; any other
    /// component shows all its children.
    private func visibleChildren(of node: ComponentNode) -> [ComponentNode] {
        if let router = node.router {
            guard let top = router.routes.last, let target = resolveNode(top, on: router), target !== node else {
                return []
            }
            return [target]
        }
        if node.layout.hasEnclosingRouter { return [] }
        return tree.withLock { _ in node.orderedChildren }
    }

    /// Makes `node` and what it shows visible, parents first.
    private func show(_ node: ComponentNode) {
        let appeared = tree.withLock { _ -> Bool in
            guard node.isBound, !node.isVisibleNow else { return false }
            node.isVisibleNow = true
            return true
        }
        guard appeared else { return }
        EventLog.record(.lifecycle, source: node.id, payload: "didAppear")
        node.sendLifecycle(appeared: true)
        let children = visibleChildren(of: node)
        tree.withLock { _ in node.shownChildren = children }
        for child in children { show(child) }
    }

    /// Makes `node` and what it showed invisible, children first.
    private func hide(_ node: ComponentNode) {
        let children: [ComponentNode]? = tree.withLock { _ in
            guard node.isVisibleNow else { return nil }
            defer { node.shownChildren = [] }
            return node.shownChildren
        }
        guard let children else { return }
        for child in children.reversed() { hide(child) }
        tree.withLock { _ in node.isVisibleNow = false }
        EventLog.record(.lifecycle, source: node.id, payload: "didDisappear")
        node.sendLifecycle(appeared: false)
    }

    /// `node` is visible; `child` has just joined what it shows (a created component, a new
    /// top route).
    private func reveal(_ child: ComponentNode, in node: ComponentNode) {
        tree.withLock { _ in node.shownChildren.append(child) }
        show(child)
    }

    /// `child` leaves what `node` shows.
    private func conceal(_ child: ComponentNode, in node: ComponentNode) {
        hide(child)
        tree.withLock { _ in node.shownChildren.removeAll { $0 === child } }
    }

    /// Makes a node visible by hand (the `.manual` policy of a view adapter), in order with
    /// the tree's other changes.
    func setVisible(_ node: ComponentNode, _ visible: Bool) {
        send(.setVisible(node, visible))
    }

    private func applyVisibility(_ node: ComponentNode, _ visible: Bool) {
        let changed = tree.withLock { _ -> Bool in
            guard node.isBound, node.isVisibleNow != visible else { return false }
            node.isVisibleNow = visible
            return true
        }
        guard changed else { return }
        EventLog.record(.lifecycle, source: node.id, payload: visible ? "didAppear" : "didDisappear")
        node.sendLifecycle(appeared: visible)
    }

    // MARK: Routing

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
        return resolve(offset: location.offset, target: location.target, instance: route.instance, in: anchor, name: location.targetName)
    }

    private func resolve(offset: Int, target: ObjectIdentifier, instance: UUID?, in node: ComponentNode, name: String) -> Resolution {
        if offset == 0 && target == node.type { return .node(node) }
        // A field of this component first: a zero-size one shares its offset with the field
        // that follows it, and must not be looked for inside that field. (Routers refuse the
        // key paths that could name several fields; see `Router.ambiguity`.)
        for (index, field) in node.layout.fields.enumerated() where field.offset == offset && ObjectIdentifier(field.type) == target {
            switch field.kind {
            case .component:
                return tree.withLock { _ in node.staticChildren[index] }.map(Resolution.node) ?? .missing("not bound")
            case .dynamic, .instance:
                return resolveSlot(index, field: field, instance: instance, in: node)
            case .enclosingRouter:
                return .missing("it is an @EnclosingRouter, not a component")
            }
        }
        for (index, field) in node.layout.fields.enumerated()
        where field.kind == .component && field.offset <= offset && offset < field.offset + field.size {
            if let child = tree.withLock({ _ in node.staticChildren[index] }) {
                return resolve(offset: offset - field.offset, target: target, instance: instance, in: child, name: name)
            }
        }
        return .missing("\(node.typeName) has no component of type \(name) there")
    }

    private func resolveSlot(_ index: Int, field: ComponentLayout.Field, instance: UUID?, in node: ComponentNode) -> Resolution {
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
        let bound = tree.withLock { _ in node.slotChildren[index]?.node(wanted) }
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

    private func countRoutes(_ routes: [Route], on router: Router, by delta: Int) {
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
            guard let node = parent.slotChildren[attachment.field]?.node(id) else {
                return false
            }
            return tree.routed[ObjectIdentifier(node)] != nil
        }
    }

    private func routerChanged(_ router: Router, _ change: RouteChange) {
        guard let owner = tree.withLock({ $0.routerOwners[ObjectIdentifier(router)] }) else { return }
        let removedNodes = change.popped.compactMap { resolveNode($0, on: router) }
        countRoutes(change.popped, on: router, by: -1)
        countRoutes(change.pushed, on: router, by: 1)
        if automaticVisibility, tree.withLock({ _ in owner.isVisibleNow }) {
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
            guard !stillRouted, let parent = node.parent, let slotEntry = node.slotEntry else { continue }
            let field = parent.layout.fields[slotEntry.field]
            let slot = field.slot(of: parent.component)
            if slot.remove(slotEntry.entry.id) {
                destroy(node)
                slot.announce(created: false, slotEntry.entry)
            }
        }
    }

    // MARK: Created components

    private func applySlotChange(_ slot: any ComponentSlot, _ change: SlotChange) {
        guard let attachment = slot.attachment, let parent = attachment.parent, parent.isBoundNow(in: self) else { return }
        // A replaced component's routes now lead to its successor: they keep their count.
        var inheritedRoutes = 0
        let field = attachment.field
        switch change {
        case .created(let entry):
            if case .single = entry.id, let old = existing(.single, field: field, in: parent) {
                inheritedRoutes = tree.withLock { $0.routed[ObjectIdentifier(old)] ?? 0 }
                destroy(old)
                if let oldEntry = old.slotEntry?.entry { slot.announce(created: false, oldEntry) }
            }
            let node = makeSlotNode(entry, field: field, in: parent)
            tree.withLock { tree in
                parent.slotChildren[field, default: SlotChildren()].append(node)
                if inheritedRoutes > 0 { tree.routed[ObjectIdentifier(node)] = inheritedRoutes }
            }
            build(node)
            bindRouters(in: node)
            evaluateObservers(in: node)
            slot.announce(created: true, entry)
            if automaticVisibility, tree.withLock({ _ in parent.isVisibleNow }), visibleChildren(of: parent).contains(where: { $0 === node }) {
                reveal(node, in: parent)
            }
        case .removed(let id):
            guard let node = existing(id, field: field, in: parent), let entry = node.slotEntry?.entry else { return }
            destroy(node)
            slot.announce(created: false, entry)
        }
    }

    private func existing(_ id: SlotEntry.ID, field: Int, in parent: ComponentNode) -> ComponentNode? {
        tree.withLock { _ in parent.slotChildren[field]?.node(id) }
    }

    /// Takes a created component's node out of the tree: hides it, destroys what was created
    /// inside it, unbinds its routers, and cancels its observers.
    private func destroy(_ node: ComponentNode) {
        let parent = node.parent
        if let parent { conceal(node, in: parent) }
        unbind(node)
        if let parent, let field = node.slotEntry?.field {
            tree.withLock { _ in parent.slotChildren[field]?.remove(node) }
        }
        node.detach()
    }

    /// Unbinds `node`'s subtree, children first: created components are destroyed (and
    /// announced), routers and enclosing routers unbound, observers cancelled.
    private func unbind(_ node: ComponentNode) {
        let nodes = subtree(of: node)
        // Created components inside the subtree are destroyed, innermost first.
        for descendant in nodes.reversed() where descendant !== node {
            guard let entry = descendant.slotEntry, let parent = descendant.parent else { continue }
            let field = parent.layout.fields[entry.field]
            let slot = field.slot(of: parent.component)
            if slot.remove(entry.entry.id) { slot.announce(created: false, entry.entry) }
        }
        for descendant in nodes {
            if let router = descendant.router {
                countRoutes(router.routes, on: router, by: -1)
                router.unbind(from: self)
                router.reset(to: router.hasDefaultContent ? [] : Array(router.routes.prefix(1)))
            }
            for field in descendant.layout.fields {
                let value = ComponentStorage.field(field.type, at: field.offset, of: descendant.component)
                switch field.kind {
                case .enclosingRouter: (value as! EnclosingRouter).binding.unbind()
                case .dynamic, .instance: Self.slot(of: value).attach(nil)
                case .component: break
                }
            }
        }
        node.scope.end()
        tree.withLock { tree in
            for descendant in nodes {
                tree.nodes[ObjectIdentifier(descendant)] = nil
                if let router = descendant.router { tree.routerOwners[ObjectIdentifier(router)] = nil }
                tree.routed[ObjectIdentifier(descendant)] = nil
                descendant.isBound = false
                descendant.isVisibleNow = false
                descendant.shownChildren = []
                // A node someone still holds must not keep its subtree alive.
                descendant.staticChildren = [:]
                descendant.slotChildren = [:]
                for identity in descendant.ownedIdentities where tree.owners[identity] === descendant {
                    tree.owners[identity] = nil
                }
            }
        }
        for descendant in nodes {
            LiveNodes.remove(descendant)
            if descendant !== node { descendant.detach() }
        }
    }

    // MARK: Unmounting

    private func tearDown() {
        guard let root = tree.withLock({ $0.isMounted ? $0.root : nil }) else { return }
        hide(root)
        unbind(root)
        tree.withLock { tree in
            tree = Tree()
        }
    }

    var isMounted: Bool {
        tree.withLock { $0.isMounted }
    }
}

extension ComponentNode {
    func isBoundNow(in host: HostCore) -> Bool {
        host.tree.withLock { _ in isBound }
    }
}
