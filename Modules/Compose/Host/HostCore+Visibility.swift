import ComposeEmitters
import ComposeMachinery
import ComposeRouting
import Foundation

// Visibility: which nodes are visible, and appearing and disappearing in order.

extension HostCore {
    /// The children of a visible `node` that are visible (see ``ComponentHost``'s
    /// "Visibility"): a router component shows its top route; a component that navigates
    /// through an `@EnclosingRouter` shows its children only when they are routed; any other
    /// component shows all its children.
    func visibleChildren(of node: ComponentNode) -> [ComponentNode] {
        if let router = node.router {
            guard let top = router.routes.last, let target = resolveNode(top, on: router), target !== node else {
                return []
            }
            return [target]
        }
        if node.layout.hasEnclosingRouter { return [] }
        return tree.withLock { $0[node].orderedChildren(of: node.layout) }
    }

    /// Makes `node` and what it shows visible, parents first.
    func show(_ node: ComponentNode) {
        let appeared = tree.withLock { tree -> Bool in
            guard tree[node].isBound, !tree[node].isVisible else { return false }
            tree[node].isVisible = true
            return true
        }
        guard appeared else { return }
        node.visibility.changed()
        EventLog.record(.lifecycle, source: node.id, payload: "didAppear")
        node.sendLifecycle(appeared: true)
        let children = visibleChildren(of: node)
        tree.withLock { $0[node].shownChildren = children }
        for child in children { show(child) }
    }

    /// Makes `node` and what it showed invisible, children first.
    ///
    /// Under manual visibility the adapter decided what was visible, and a visible node need not
    /// be a visible node's child (a route pushed through an enclosing router shows a grandchild
    /// without its parent): every visible node of the subtree goes, deepest first.
    func hide(_ node: ComponentNode) {
        if !automaticVisibility {
            let visible = subtree(of: node).filter { descendant in tree.withLock { $0[descendant].isVisible } }
            for descendant in visible.reversed() { applyVisibility(descendant, false) }
            return
        }
        let children: [ComponentNode]? = tree.withLock { tree in
            guard tree[node].isVisible else { return nil }
            defer { tree[node].shownChildren = [] }
            return tree[node].shownChildren
        }
        guard let children else { return }
        for child in children.reversed() { hide(child) }
        tree.withLock { $0[node].isVisible = false }
        node.visibility.changed()
        EventLog.record(.lifecycle, source: node.id, payload: "didDisappear")
        node.sendLifecycle(appeared: false)
    }

    /// `node` is visible; `child` has just joined what it shows (a created component, a new
    /// top route).
    func reveal(_ child: ComponentNode, in node: ComponentNode) {
        tree.withLock { $0[node].shownChildren.append(child) }
        show(child)
    }

    /// `child` leaves what `node` shows.
    func conceal(_ child: ComponentNode, in node: ComponentNode) {
        hide(child)
        tree.withLock { $0[node].shownChildren.removeAll { $0 === child } }
    }

    /// Makes a node visible by hand (the `.manual` policy of a view adapter), in order with
    /// the tree's other changes.
    func setVisible(_ node: ComponentNode, _ visible: Bool) {
        send(.setVisible(node, visible))
    }

    func applyVisibility(_ node: ComponentNode, _ visible: Bool) {
        let changed = tree.withLock { tree -> Bool in
            guard tree[node].isBound, tree[node].isVisible != visible else { return false }
            tree[node].isVisible = visible
            tree.visibilityChanges += 1
            if visible {
                tree[node].appearedAt = tree.visibilityChanges
            } else {
                tree[node].disappearedAt = tree.visibilityChanges
            }
            return true
        }
        guard changed else { return }
        if !visible, !automaticVisibility { reportChildrenNotShown(by: node) }
        node.visibility.changed()
        EventLog.record(.lifecycle, source: node.id, payload: visible ? "didAppear" : "didDisappear")
        node.sendLifecycle(appeared: visible)
    }

    /// Under manual visibility, as `node` disappears: reports each stored child that `node` shows
    /// by the host's rule (``ComponentNode/ChildVisibility/all``), that has `didAppear` or
    /// `didDisappear` handlers, and that was not visible at any moment while `node` was (visible
    /// now, or gone since `node` appeared, in whatever order the adapter reported the two): the
    /// mark of a child a parent's view embeds directly, without the adapter's component view,
    /// which hears neither. Once per parent type and child for the host.
    private func reportChildrenNotShown(by node: ComponentNode) {
        guard node.childVisibility == .all else { return }
        let unseen = tree.withLock { tree -> [(field: String, child: ComponentNode)] in
            let since = tree[node].appearedAt
            return tree[node].staticChildren.sorted { $0.key < $1.key }.compactMap { index, child in
                let shown = tree[child].isVisible || tree[child].disappearedAt > since
                guard !shown, tree[child].lifecycle != nil else { return nil }
                return (node.layout.fields[index].name, child)
            }
        }
        for (field, child) in unseen where child.hasLifecycleHandlers {
            let key = ReportedViewProblem(type: node.type, problem: .childNotShown(field: field))
            guard reportedViewProblems.withLock({ $0.insert(key).inserted }) else { continue }
            Diagnostics.report(
                domain: "components",
                ComponentViewProblem.childNotShown(field: field).message(typeName: node.typeName)
                    + " (\(child.typeName) has didAppear or didDisappear handlers)"
            )
        }
    }
}
