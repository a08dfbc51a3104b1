import ComposeEmitters
import ComposeMachinery
import ComposeRouting
import Foundation

// Teardown: unbinding a subtree (a created component destroyed, or the whole tree unmounted).

extension HostCore {
    /// Unbinds `node`'s subtree, children first: created components are destroyed (and
    /// announced), routers and enclosing routers unbound, observers cancelled.
    func unbind(_ node: ComponentNode) {
        let nodes = subtree(of: node)
        // Created components inside the subtree are destroyed, innermost first.
        for descendant in nodes.reversed() where descendant !== node {
            guard let entry = descendant.slotEntry, let parent = descendant.parentNode else { continue }
            let field = parent.layout.fields[entry.field]
            let slot = field.slot(of: parent.component)
            if slot.remove(entry.entry.id) { slot.announce(created: false, entry.entry) }
        }
        for descendant in nodes {
            if let router = descendant.router {
                let routes = router.routes
                countRoutes(routes, on: router, by: -1)
                release(routes, on: router)
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
                tree[descendant].isBound = false
                tree[descendant].isVisible = false
                tree[descendant].shownChildren = []
                // A node someone still holds must not keep its subtree alive.
                tree[descendant].staticChildren = [:]
                tree[descendant].slotChildren = [:]
                for identity in tree[descendant].ownedIdentities where tree.owners[identity] === descendant {
                    tree.owners[identity] = nil
                }
            }
        }
        for descendant in nodes {
            LiveNodes.remove(descendant)
            if descendant !== node { descendant.detach() }
        }
    }

    func tearDown() {
        guard let root = tree.withLock({ $0.isMounted ? $0.root : nil }) else { return }
        hide(root)
        unbind(root)
        tree.withLock { tree in
            tree = Tree()
        }
    }
}
