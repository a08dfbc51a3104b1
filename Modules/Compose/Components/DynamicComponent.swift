import ComposeEmitters
import ComposeMachinery
import ComposeRouting
import Foundation

/// A child component created at run time, with the data it needs: one at a time.
///
/// ```swift
/// struct ProfileComponent: RouterComponent {
///     let editProfile = DynamicComponent<EditProfileComponent>()
///     let router = Router(start: \Self.self)
///     let openEditProfile = ValueEmitter<ProfileObject>()
///
///     var observers: Void {
///         openEditProfile += { profile in
///             editProfile.create(EditProfileComponent(profile: profile))
///             router.push(\Self.editProfile)
///         }
///     }
/// }
/// ```
///
/// ## Lifetime
/// - ``create(_:)`` makes the component part of the tree: the host sets up its observers, then
///   sends ``didCreate``. Creating again replaces the previous one, which is destroyed first.
/// - The component is destroyed (its observers cancelled, then ``didDestroy`` sent) when its
///   route is popped or replaced off its router, when ``destroy()`` dismisses it (a sheet), or
///   when its parent leaves the tree.
/// - Routing to it before it is created is refused, with a `RoutingError` of kind
///   `notCreated`; ``destroy()`` while it is on a router's stack is refused too (pop it
///   instead).
///
/// A `DynamicComponent` is a handle: copies of it (copies of the component holding it) share
/// the created component.
public struct DynamicComponent<Wrapped: Component>: Routable, Sendable {
    let storage: DynamicStorage<Wrapped>

    /// An empty slot.
    public init() {
        storage = DynamicStorage()
    }

    /// Creates the component: it joins the tree, replacing the current one if any.
    public func create(_ component: Wrapped) {
        storage.create(component)
    }

    /// Dismisses the component, as closing a sheet does.
    ///
    /// - Returns: `false` if there was none, or if it is on a router's stack (pop it instead);
    ///   the latter is reported as a `Diagnostic`.
    @discardableResult
    public func destroy(fileID: String = #fileID, line: UInt = #line) -> Bool {
        storage.destroy(fileID: fileID, line: line)
    }

    /// The created component, if any.
    public var component: Wrapped? {
        storage.current?.component
    }

    /// Whether a component is created.
    public var isCreated: Bool {
        component != nil
    }

    /// Sent after a component is created and its observers are set up.
    public var didCreate: SignalEmitter {
        storage.didCreate
    }

    /// Sent after the component is destroyed and its observers are cancelled.
    public var didDestroy: SignalEmitter {
        storage.didDestroy
    }
}

/// The host's view of a `DynamicComponent` field.
protocol DynamicComponentProtocol {
    var slot: any ComponentSlot { get }
}

extension DynamicComponent: DynamicRoutable {
    /// The created component (for routing paths).
    public var created: Wrapped? {
        component
    }
}

extension DynamicComponent: DynamicComponentProtocol {
    var slot: any ComponentSlot { storage }
}

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
    /// the host, when a route to it is popped or its parent leaves the tree.
    func remove(_ id: SlotEntry.ID) -> Bool
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

final class DynamicStorage<Wrapped: Component>: SlotStorage, ComponentSlot, @unchecked Sendable {  // State under its lock.
    struct State {
        var current: (component: Wrapped, generation: UInt64)?
        var generation: UInt64 = 0
    }

    let state = LockedState(State())
    let didCreate = SignalEmitter(label: "\(Wrapped.self).didCreate")
    let didDestroy = SignalEmitter(label: "\(Wrapped.self).didDestroy")

    var current: (component: Wrapped, generation: UInt64)? {
        state.withLock { $0.current }
    }

    var entries: [SlotEntry] {
        entry(.single).map { [$0] } ?? []
    }

    func entry(_ id: SlotEntry.ID) -> SlotEntry? {
        guard case .single = id, let current else { return nil }
        return SlotEntry(id: .single, component: current.component, generation: current.generation)
    }

    func create(_ component: Wrapped) {
        let (replaced, host, created): (Wrapped?, HostCore?, SlotEntry) = state.withLock { state in
            let replaced = state.current?.component
            state.generation += 1
            state.current = (component, state.generation)
            let entry = SlotEntry(id: .single, component: component, generation: state.generation)
            return (replaced, attachment?.host, entry)
        }
        if let host {
            host.slotChanged(self, .created(created))
        } else {
            if replaced != nil { didDestroy.send() }
            announce(created: true, created)
        }
    }

    func destroy(fileID: String, line: UInt) -> Bool {
        guard mayDestroy(.single, "DynamicComponent<\(Wrapped.self)>.destroy()", fileID: fileID, line: line) else {
            return false
        }
        let host = attachment?.host
        let removed: Bool = state.withLock { state in
            guard state.current != nil else { return false }
            state.current = nil
            return true
        }
        guard removed else { return false }
        if let host {
            host.slotChanged(self, .removed(.single))
        } else {
            didDestroy.send()
        }
        return true
    }

    func remove(_ id: SlotEntry.ID) -> Bool {
        state.withLock { state in
            guard state.current != nil else { return false }
            state.current = nil
            return true
        }
    }

    func announce(created: Bool, _ entry: SlotEntry) {
        EventLog.record(.lifecycle, source: "\(Wrapped.self)", payload: created ? "didCreate" : "didDestroy")
        (created ? didCreate : didDestroy).send()
    }
}

extension EventLog.Event.Kind {
    /// A component appeared, disappeared, was created or was destroyed.
    public static let lifecycle = Self(rawValue: "lifecycle")
}
