#if canImport(SwiftUI)
import Compose
import SwiftUI

/// Mounts a component tree and shows its root: the top of a Compose app's view hierarchy.
///
/// The host runs with manual visibility (`ComponentHost(root, visibility: .manual)`): the views
/// decide what is on screen. Every component shown through ``ComponentView``, ``RouterView`` or a
/// sheet reports its appearance and disappearance to the host, which sends the component's
/// `didAppear` and `didDisappear`.
///
/// ```swift
/// WindowGroup {
///     ComponentHostView(AppComponent())
/// }
/// ```
@MainActor
public struct ComponentHostView<Root: Component & View>: View {
    @State private var host: ComponentHost<Root>

    /// Mounts `root` on a host of its own, made on the main actor.
    public init(_ root: Root) {
        _host = State(initialValue: ComponentHost(root, visibility: .manual))
    }

    /// The root component's view, with the host in the environment for the views below.
    public var body: some View {
        ComponentView(host.root)
            .environment(\.componentHost, host)
    }
}

/// Shows a component of the tree and tells the host when it appears and disappears.
///
/// Embed a child component in a parent's body with it, so the child's lifecycle follows the
/// screen: `ComponentView(logIn)`. ``RouterView`` and `sheet(_:)` use it for what they show. A
/// child embedded directly (`logIn` alone) shows its body but hears no `didAppear`: if it has
/// lifecycle handlers, the host reports it, with this fix, as its parent disappears.
@MainActor
public struct ComponentView<Content: Component & View>: View {
    let component: Content
    @Environment(\.componentHost) private var host

    /// Shows `component`, a component of the tree of the enclosing ``ComponentHostView``.
    public init(_ component: Content) {
        self.component = component
    }

    /// The component's own view, telling the host when it appears and disappears.
    public var body: some View {
        component
            .onAppear { visible(true) }
            .onDisappear { visible(false) }
    }

    private func visible(_ visible: Bool) {
        guard let host, let node = host.node(of: component) else { return }
        host.setVisible(node, visible)
    }
}

/// Shows a node's component if it is a view, and reports its appearance and disappearance. For
/// a router's own owner (`Router(start: \Self.self)`) it shows the owner's `routableBody`.
///
/// A component it cannot show is reported once (``ComponentViewProblem``), and shows nothing in
/// release builds and the diagnostic's message in debug builds: one that is not a `View` (its
/// `body` is never called), and a router's owner routed to itself without `routableBody` (its
/// view is the router's, which cannot show itself).
@MainActor
struct NodeView: View {
    let node: ComponentNode?
    var router: Router? = nil
    @Environment(\.componentHost) private var host

    var body: some View {
        content
            .onAppear { visible(true) }
            .onDisappear { visible(false) }
    }

    private var content: AnyView {
        guard let node else { return AnyView(EmptyView()) }
        if let router, node.router === router {
            if let routable = node.value as? any RoutableView { return Self.routableBody(of: routable) }
            return problem(.ownRouteWithoutContent(requirement: "RoutableView's routableBody"), showing: node)
        }
        if let view = node.value as? any View { return AnyView(view) }
        return problem(.notAView(protocolName: "View"), showing: node)
    }

    private func problem(_ problem: ComponentViewProblem, showing node: ComponentNode) -> AnyView {
        host?.report(problem, showing: node, fileID: #fileID, line: #line)
        #if DEBUG
        return AnyView(Text(verbatim: problem.message(typeName: node.typeName)))
        #else
        return AnyView(EmptyView())
        #endif
    }

    private static func routableBody<Routable: RoutableView>(of view: Routable) -> AnyView {
        AnyView(view.routableBody)
    }

    private func visible(_ visible: Bool) {
        guard let host, let node else { return }
        host.setVisible(node, visible)
    }
}
#endif
