import ComposeEmitters
import ComposeMachinery
import ComposeRouting
import Foundation

/// Runs a tree of components without any UI: the headless host that tests, servers and
/// command-line tools use, and that a SwiftUI adapter drives.
///
/// ```swift
/// let host = ComponentHost(AppComponent())
/// host.root.auth.logIn.openSignUp.send()
/// host.isVisible(\.auth.signUp)   // true
/// host.unmount()
/// ```
///
/// ## Mounting
/// `init` binds the root: a ``StartupComponent``'s `willBindRootComponent()` runs, then the
/// host walks the tree (child components, created dynamic components and instances), binds
/// every router and `@EnclosingRouter`, and evaluates each component's `observers` once,
/// parents first, in the component's own `ObservationScope` (a child of its parent's). Then
/// `didBindRootComponent()` runs, and the root appears.
///
/// ## Visibility
/// Visible are the root and, below a visible component, what it shows:
/// - a router component shows its router's top route, and nothing else;
/// - a component with an `@EnclosingRouter` shows its children only when they are routed:
///   they are where it navigates to;
/// - any other component shows all its children (its embedded content), created ones
///   included.
///
/// `didAppear` is sent parents first, `didDisappear` children first. Without a view, the host
/// cannot know which children a component's body really shows; with ``Visibility/manual`` it
/// leaves visibility to a view adapter, which calls ``setVisible(_:_:)`` from `onAppear` and
/// `onDisappear`.
///
/// ## Leaving the tree
/// A dynamic component or instance leaves the tree when its route is popped or replaced off
/// its router, or when it is dismissed with `destroy`: it disappears, what was created inside
/// it is destroyed, its routers return to their root, its observers are cancelled, then
/// `didDestroy` is sent. ``unmount()`` does the same for the whole tree (and is called when the
/// host is released).
///
/// ## Order and threads
/// Every change of the tree is processed one at a time, in order: on the thread that caused
/// it, or right after the change being processed (a lifecycle handler that navigates). Each
/// change is complete when the call that caused it returns, unless it was made from inside
/// another change's processing.
///
/// ## Isolation
/// In a main-actor app target, components are main-actor types and their conformance to
/// ``Component`` is isolated to the main actor (Swift 6.2 infers both), so their `observers` may
/// call the app's main-actor code. A host made by main-actor code is a main-actor host: it
/// applies every change on the main actor, at once when the change is made there (a handler, a
/// view), otherwise on a task on the main actor soon after, in order. So a router pushed from a
/// background task still mounts its components on the main actor. A host made by nonisolated
/// code applies changes on the thread that makes them, as above.
// Unchecked: `root` is immutable, and a main-actor root is only used on the main actor ("Isolation").
public final class ComponentHost<Root: Component>: @unchecked Sendable {
    /// Who decides which components are visible.
    public enum Visibility: Sendable {
        /// The host, from the tree and its routers.
        case automatic
        /// A view adapter, through ``setVisible(_:_:)``.
        case manual
    }

    let core: HostCore
    /// The root component.
    public let root: Root

    /// Mounts `root`.
    ///
    /// A host made by main-actor code applies every change of its tree on the main actor (see
    /// "Isolation" above); one made elsewhere, on the thread that makes the change.
    ///
    /// - Parameters:
    ///   - root: The root component.
    ///   - label: A name for diagnostics.
    ///   - visibility: Who decides which components are visible.
    ///   - isolation: The caller's isolation, by default; `MainActor.shared` makes a main-actor host.
    public init(
        _ root: Root,
        label: String? = nil,
        visibility: Visibility = .automatic,
        isolation: isolated (any Actor)? = #isolation
    ) {
        self.root = root
        self.core = HostCore(
            label: label ?? "ComponentHost<\(Root.self)>",
            automaticVisibility: visibility == .automatic,
            onMainActor: isolation === MainActor.shared
        )
        // Mounting (observers, the first lifecycle events, the tasks they start) is a
        // consequence of nothing a session replays: it happens again when a replay mounts.
        EventLog.alwaysAsConsequence { core.mount(root) }
    }

    deinit {
        unmount()
    }

    /// Takes the whole tree down: everything disappears, every created component is destroyed,
    /// every router returns to its root, every observer is cancelled. Idempotent.
    public func unmount() {
        core.send(.unmount)
    }

    /// Whether the tree is mounted.
    public var isMounted: Bool {
        core.isMounted
    }

    /// The root's node.
    public var rootNode: ComponentNode? {
        core.tree.withLock { $0.root }
    }

    /// The node of the component at `keyPath` from the root (a stored-property path), or of the
    /// created component of a `DynamicComponent` there, or of its instance `instance` for an
    /// `InstanceComponent`.
    public func node<Target: Routable>(_ keyPath: KeyPath<Root, Target>, instance: UUID? = nil) -> ComponentNode? {
        guard let root = rootNode,
            case .success(let route) = Router.route(keyPath, instance: instance, anchor: ObjectIdentifier(root))
        else {
            return nil
        }
        return core.resolveNode(route, on: nil)
    }

    /// Whether the component at `keyPath` (see ``node(_:instance:)``) is visible.
    public func isVisible<Target: Routable>(_ keyPath: KeyPath<Root, Target>, instance: UUID? = nil) -> Bool {
        node(keyPath, instance: instance)?.isVisible ?? false
    }

    /// Every node of the tree, parents first.
    public var nodes: [ComponentNode] {
        rootNode.map(core.subtree(of:)) ?? []
    }

    /// The visible nodes, parents first.
    public var visibleNodes: [ComponentNode] {
        nodes.filter(\.isVisible)
    }

    /// The ids of the visible nodes, parents first: `["AppComponent", "AppComponent/auth", ...]`.
    public var visibleIDs: [String] {
        visibleNodes.map(\.id)
    }

    /// The observers of the whole tree that are still active: zero after ``unmount()``.
    public var activeObserverCount: Int {
        rootNode?.activeObserverCount ?? 0
    }

    /// Makes `node` visible or not, for a view adapter (``Visibility/manual``): sends its
    /// `didAppear` or `didDisappear` if that changes its visibility.
    public func setVisible(_ node: ComponentNode, _ visible: Bool) {
        EventLog.record(.visibility, source: node.name, payload: visible, subject: ObjectIdentifier(node))
        core.setVisible(node, visible)
    }
}
