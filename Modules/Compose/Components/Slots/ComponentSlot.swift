import ComposeEmitters
import ComposeMachinery
import ComposeRouting
import Foundation

/// Where the components of a `DynamicComponent` or `InstanceComponent` live, shared by copies.
///
/// Created values are stored at once, so a route to them can be checked at once; the host
/// binds them (sets up their observers) when it processes the change, in order with every
/// other change of its tree.
protocol ComponentSlot: AnyObject, Sendable {
    /// The created components, with a generation each (a new one per creation), in order.
    var entries: [SlotEntry] { get }
    /// The created component `id`, if it exists.
    func entry(_ id: SlotEntry.ID) -> SlotEntry?
    /// Attaches the slot to the host that mounted its parent, or detaches it (`nil`).
    func attach(_ attachment: SlotAttachment?)
    /// The host the slot is attached to, if any.
    var attachment: SlotAttachment? { get }
    /// Removes the entry `id` (`nil`: the dynamic component's), returning whether it was there:
    /// the host, when its parent leaves the tree.
    func remove(_ id: SlotEntry.ID) -> Bool
    /// Counts a route to entry `id` that a router is about to put on its stack, if the entry
    /// exists, in one step of the slot's lock: while a route holds it, `destroy` is refused.
    /// Routes hold an entry by its id: a dynamic component's routes lead to its replacement too.
    func reserve(_ id: SlotEntry.ID) -> Bool
    /// A route counted by ``reserve(_:)`` left its router's stack, or never joined it.
    func release(_ id: SlotEntry.ID)
    /// Removes the entry `id` unless a route holds it, returning whether it was removed: the
    /// host, when the last route to it was popped (a push since may hold it again).
    func removeIfUnreserved(_ id: SlotEntry.ID) -> Bool
    /// Sends the creation or destruction of `entry`.
    func announce(created: Bool, _ entry: SlotEntry)
}

/// A change of a slot, for the host.
enum SlotChange: Sendable {
    /// A component was created (for a dynamic component: replacing the previous one, if any).
    case created(SlotEntry)
    /// The entry was removed by `destroy`.
    case removed(SlotEntry.ID)
}

/// One created component of a slot.
struct SlotEntry: @unchecked Sendable {  // The component is Sendable; `any` hides it.
    enum ID: Hashable, Sendable {
        case single
        case instance(UUID)
    }

    let id: ID
    let component: any Component
    let generation: UInt64
}
