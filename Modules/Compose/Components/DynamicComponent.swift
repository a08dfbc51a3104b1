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
///   route is popped or replaced off its router, when ``destroy(fileID:line:)`` dismisses it (a sheet), or
///   when its parent leaves the tree.
/// - Routing to it before it is created is refused, with a `RoutingError` of kind
///   `notCreated`; ``destroy(fileID:line:)`` while it is on a router's stack is refused too (pop it
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
    /// A route on a router's stack holds the component from the moment the push checked it:
    /// `destroy()` racing a push is refused, or the push is (the component is gone), never both
    /// done.
    ///
    /// - Returns: `false` if there was none, or if it is on a router's stack (pop it instead);
    ///   the latter is reported as a `Diagnostic`.
    @discardableResult
    public func destroy(fileID: String = #fileID, line: UInt = #line) -> Bool {
        storage.destroy(fileID: fileID, line: line)
    }

    /// The created component, if any. Observable (see ``isCreated``).
    public var component: Wrapped? {
        storage.current?.component
    }

    /// Whether a component is created.
    ///
    /// Observable, like ``component``: a SwiftUI view or `withObservationTracking` that reads it
    /// is told when a component is created or destroyed.
    public var isCreated: Bool {
        component != nil
    }

    /// Whether the component is presented, as a sheet's `isPresented` binding reads and writes
    /// it: `get` is ``isCreated``; setting `false` dismisses (``destroy(fileID:line:)``), as a swipe down
    /// closing a sheet does.
    ///
    /// Setting `true` changes nothing: a component is presented by ``create(_:)``, which has the
    /// value to present. Setting `false` on a component that a router shows is refused like
    /// ``destroy(fileID:line:)`` (pop its route instead) and reported as a `Diagnostic`.
    public var isPresented: Bool {
        get { isCreated }
        nonmutating set {
            guard !newValue, isCreated else { return }
            destroy()
        }
    }

    /// The presented state without the component's type, for a view layer's sheet binding,
    /// whose `@Sendable` closures cannot capture a main-actor component's type.
    public var presentation: any ComponentPresentation {
        storage
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

/// Whether a dynamic component is presented, and dismissing it: what a sheet binds to, without
/// the component's type. Returned by ``DynamicComponent/presentation``.
public protocol ComponentPresentation: AnyObject, Sendable {
    /// Whether a component is created. Observable.
    var isPresented: Bool { get }

    /// Dismisses the component, as ``DynamicComponent/destroy(fileID:line:)`` does.
    ///
    /// - Returns: `false` if there was none, or if a router shows it (reported as a `Diagnostic`).
    @discardableResult
    func dismiss(fileID: String, line: UInt) -> Bool
}

extension DynamicStorage: ComponentPresentation {
    var isPresented: Bool {
        current != nil
    }

    func dismiss(fileID: String, line: UInt) -> Bool {
        destroy(fileID: fileID, line: line)
    }
}
