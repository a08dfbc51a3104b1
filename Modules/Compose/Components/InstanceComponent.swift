import ComposeEmitters
import ComposeMachinery
import ComposeRouting
import Foundation

/// Any number of child components of one type, created at run time, each with a `UUID`: a
/// player that opens another player, and so on.
///
/// ```swift
/// struct PlayerComponent: Component {
///     let video: Video
///     let next = InstanceComponent<PlayerComponent>()
///     @EnclosingRouter var router
///     let openNext = ValueEmitter<Video>()
///
///     var observers: Void {
///         openNext += { video in
///             let id = next.create(PlayerComponent(video: video))
///             router.push(\Self.next, instance: id)
///         }
///     }
/// }
/// ```
///
/// Each instance joins the tree when it is created (the host sets up its observers, then sends
/// ``didCreate`` with its id) and is destroyed when its route is popped or replaced off its
/// router, when ``destroy(_:fileID:line:)`` dismisses it, or when its parent leaves the tree (its
/// observers are cancelled, then ``didDestroy`` is sent with its id). Routing to an id that
/// does not exist is refused (`RoutingError` of kind `notCreated`).
public struct InstanceComponent<Wrapped: Component>: Routable, Sendable {
    let storage: InstanceStorage<Wrapped>

    /// No instances yet.
    public init() {
        storage = InstanceStorage()
    }

    /// Creates an instance.
    ///
    /// - Returns: Its id, for routing (`router.push(\Self.next, instance: id)`) and
    ///   ``instance(for:)``.
    @discardableResult
    public func create(_ component: Wrapped) -> UUID {
        storage.create(component)
    }

    /// Creates an instance with the id `id`, chosen beforehand.
    ///
    /// - Returns: `false`, creating nothing, if an instance with that id exists.
    @discardableResult
    public func create(_ component: Wrapped, id: UUID) -> Bool {
        storage.create(component, id: id)
    }

    /// The instance with `id`, if it exists.
    public func instance(for id: UUID) -> Wrapped? {
        storage.instance(for: id)
    }

    /// The ids of the instances, in creation order.
    ///
    /// Observable: a SwiftUI view or `withObservationTracking` that reads it (or
    /// ``instance(for:)``) is told when an instance is created or destroyed.
    public var ids: [UUID] {
        storage.ids
    }

    /// Dismisses the instance `id`.
    ///
    /// - Returns: `false` if there is no such instance, or if it is on a router's stack (pop it
    ///   instead); the latter is reported as a `Diagnostic`.
    @discardableResult
    public func destroy(_ id: UUID, fileID: String = #fileID, line: UInt = #line) -> Bool {
        storage.destroy(id, fileID: fileID, line: line)
    }

    /// Sends the id of each instance after it is created and its observers are set up.
    public var didCreate: ValueEmitter<UUID> {
        storage.didCreate
    }

    /// Sends the id of each instance after it is destroyed and its observers are cancelled.
    public var didDestroy: ValueEmitter<UUID> {
        storage.didDestroy
    }
}

/// The host's view of an `InstanceComponent` field.
protocol InstanceComponentProtocol {
    var slot: any ComponentSlot { get }
}

extension InstanceComponent: InstanceRoutable {}

extension InstanceComponent: InstanceComponentProtocol {
    var slot: any ComponentSlot { storage }
}
