import ComposeEmitters
import ComposeMachinery
import ComposeRouting
import Foundation

/// The host a slot reports to. A class, so that the weak reference is never copied (see
/// CONTRIBUTING's toolchain notes). The host detaches it when the parent leaves the tree.
final class SlotAttachment: @unchecked Sendable {  // Immutable but for the weak reference.
    weak var host: HostCore?
    /// The parent node and the slot's field in it.
    let parent: ComponentNode?
    let field: Int

    init(host: HostCore, parent: ComponentNode, field: Int) {
        self.host = host
        self.parent = parent
        self.field = field
    }
}

/// What the storages of dynamic and instance components share: their attachment to a host.
class SlotStorage: @unchecked Sendable {  // State under its lock.
    private let attached = LockedState<SlotAttachment?>(nil)
    /// Observation of what the slot holds (`isCreated`, `ids`): read through ``observed()``,
    /// changed after every creation and destruction is announced.
    let changes = ObservationSignal()

    func attach(_ attachment: SlotAttachment?) {
        attached.withLock { $0 = attachment }
    }

    var attachment: SlotAttachment? {
        attached.withLock { $0 }
    }

    /// Whether entry `id` may be destroyed directly: not while a route leads to it (pop it
    /// instead), which is reported.
    func mayDestroy(_ id: SlotEntry.ID, _ name: @autoclosure () -> String, fileID: String, line: UInt) -> Bool {
        guard let host = attachment?.host, host.isRouted(self as! any ComponentSlot, id) else { return true }
        Diagnostics.report(
            domain: "components", "\(name()) refused: it is on a router's stack; pop it instead",
            fileID: fileID, line: line
        )
        return false
    }
}
