import ComposeEmitters
import ComposeMachinery
import ComposeRouting
import Foundation

// The debug-build check that a component observes only its own emitters and stores and its
// descendants'.

extension HostCore {
    #if DEBUG
    /// Reports a subscription from `node`'s observers to an emitter or store of a component
    /// outside `node`'s subtree.
    func auditor(for node: ComponentNode) -> RegistrationAudit.Auditor {
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
}
