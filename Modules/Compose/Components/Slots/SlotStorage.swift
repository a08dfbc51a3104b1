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

    /// Reports a `destroy` refused because a route holds the entry (see
    /// ``ComponentSlot/reserve(_:)``): it must be popped instead.
    func reportRoutedDestroy(_ name: String, fileID: String, line: UInt) {
        Diagnostics.report(
            domain: "components", "\(name) refused: it is on a router's stack; pop it instead",
            fileID: fileID, line: line
        )
    }
}

/// How many routes hold each entry of a slot (see ``ComponentSlot/reserve(_:)``), kept in the
/// slot's state, under its lock.
struct SlotReservations {
    private var counts: [SlotEntry.ID: Int] = [:]

    func holds(_ id: SlotEntry.ID) -> Bool {
        counts[id] != nil
    }

    mutating func add(_ id: SlotEntry.ID) {
        counts[id, default: 0] += 1
    }

    mutating func remove(_ id: SlotEntry.ID) {
        guard let count = counts[id] else { return }
        counts[id] = count > 1 ? count - 1 : nil
    }
}
