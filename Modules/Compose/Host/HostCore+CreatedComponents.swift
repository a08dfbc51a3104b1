import ComposeEmitters
import ComposeMachinery
import ComposeRouting
import Foundation

// Created components: dynamic components and instances joining and leaving the tree.

extension HostCore {
    func applySlotChange(_ slot: any ComponentSlot, _ change: SlotChange) {
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
                tree[parent].slotChildren[field, default: SlotChildren()].append(node)
                if inheritedRoutes > 0 { tree.routed[ObjectIdentifier(node)] = inheritedRoutes }
            }
            build(node)
            bindRouters(in: node)
            evaluateObservers(in: node)
            slot.announce(created: true, entry)
            parent.childrenSignal.changed()
            if automaticVisibility, tree.withLock({ $0[parent].isVisible }),
                visibleChildren(of: parent).contains(where: { $0 === node })
            {
                reveal(node, in: parent)
            }
        case .removed(let id):
            guard let node = existing(id, field: field, in: parent), let entry = node.slotEntry?.entry else { return }
            destroy(node)
            slot.announce(created: false, entry)
            parent.childrenSignal.changed()
        }
    }

    func existing(_ id: SlotEntry.ID, field: Int, in parent: ComponentNode) -> ComponentNode? {
        tree.withLock { $0[parent].slotChildren[field]?.node(id) }
    }

    /// Takes a created component's node out of the tree: hides it, destroys what was created
    /// inside it, unbinds its routers, and cancels its observers.
    func destroy(_ node: ComponentNode) {
        let parent = node.parentNode
        if let parent { conceal(node, in: parent) }
        unbind(node)
        if let parent, let field = node.slotEntry?.field {
            tree.withLock { $0[parent].slotChildren[field]?.remove(node) }
        }
        node.detach()
    }
}
