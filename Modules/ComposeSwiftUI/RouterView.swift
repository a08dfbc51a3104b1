#if canImport(SwiftUI)
import Compose
import SwiftUI

/// Shows a router's stack in a `NavigationStack`: the root route (or the default content of a
/// router without a start route) and, above it, every pushed route as a navigation destination.
///
/// ```swift
/// extension AuthComponent: View {
///     var body: some View {
///         VStack {
///             RouterView(router)
///             Button(emitter: openSignUp) { Text("Sign Up") }
///         }
///     }
/// }
/// ```
///
/// The stack's path is the router's `navigationPath`: a back gesture (or the back button) sets a
/// shorter path, which pops those routes and destroys the dynamic components and instances they
/// led to. Every component the stack shows reports its appearance and disappearance to the host.
///
/// A navigation made with `animated: false` (`push(_:animated:)`, `pop(animated:)`, `replace`,
/// `popToRoot`) changes the stack with animations disabled: the view reads the router's
/// `lastChange` when its routes change and sets `disablesAnimations` on that update's transaction
/// (`transaction(value:_:)`).
@MainActor
public struct RouterView<DefaultContent: View>: View {
    let router: Router
    let defaultContent: DefaultContent
    @Environment(\.componentHost) private var host

    /// Shows `router`'s routes; a router created with a start route.
    public init(_ router: Router) where DefaultContent == EmptyView {
        self.router = router
        self.defaultContent = EmptyView()
    }

    /// Shows `content` while `router` (created without a start route) has nothing pushed, and its
    /// routes above it.
    public init(_ router: Router, @ViewBuilder content: () -> DefaultContent) {
        self.router = router
        self.defaultContent = content()
    }

    /// A navigation stack on the router's navigation path: its root first, then a view per
    /// route above it; a back gesture sets a shorter path, which pops.
    public var body: some View {
        let router = self.router
        NavigationStack(path: path) {
            root.navigationDestination(for: Route.self) { route in
                destination(route)
            }
        }
        .transaction(value: router.routes) { transaction in
            if router.lastChange?.animated == false { transaction.disablesAnimations = true }
        }
    }

    /// The router's `navigationPath`, as the stack reads and writes it.
    private var path: Binding<[Route]> {
        let router = self.router
        return Binding(get: { router.navigationPath }, set: { router.navigationPath = $0 })
    }

    @ViewBuilder
    private var root: some View {
        if router.hasDefaultContent {
            defaultContent
        } else if let first = router.routes.first {
            destination(first)
        }
    }

    private func destination(_ route: Route) -> NodeView {
        NodeView(node: host?.node(for: route, on: router), router: router)
    }
}

/// A router component whose router can show the component itself (`Router(start: \Self.self)`):
/// its `body` shows the ``RouterView``, and ``routableBody`` is what the router shows for the
/// component's own route.
///
/// ```swift
/// extension ExhibitionComponent: RoutableView {
///     var body: some View { RouterView(router) }
///
///     var routableBody: some View {
///         VStack {
///             Text("Welcome")
///             ComponentView(specimenA)
///         }
///     }
/// }
/// ```
@MainActor
public protocol RoutableView: View {
    /// The view of the component when its router shows the component itself.
    associatedtype RoutableBody: View
    /// What the router shows when its top route is the component itself.
    @ViewBuilder var routableBody: RoutableBody { get }
}

extension RoutableView where Self: RouterComponent {
    /// A router component's default body: its ``RouterView``.
    public var body: some View {
        RouterView(router)
    }
}

extension RouterComponent where Self: View {
    /// A router component's default body: its ``RouterView``, so `extension AuthComponent: View {}`
    /// shows the router's stack. A router that routes to its owner itself (`Router(start:
    /// \Self.self)`) needs ``RoutableView`` too, to say what that route shows.
    @MainActor public var body: some View {
        RouterView(router)
    }
}
#endif
