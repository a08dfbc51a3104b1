import ComposeEmitters
import ComposeMachinery
import ComposeRouting
import Foundation

/// The router of the nearest enclosing router component, for a component that pushes and pops
/// without a router of its own.
///
/// ```swift
/// struct LogInComponent: Component {
///     let resetPassword = ResetPasswordComponent()
///     @EnclosingRouter var router
///     let openResetPassword = SignalEmitter()
///
///     var observers: Void {
///         openResetPassword += { router.push(\Self.resetPassword) }
///         resetPassword.goBack += { router.pop() }
///     }
/// }
/// ```
///
/// Key paths are written from the component that holds the wrapper (`\Self.resetPassword`).
/// The host binds the wrapper when it mounts the component, to the router of its nearest
/// ancestor that is a ``RouterComponent``; before that, or with no such ancestor, navigation
/// is refused with a `RoutingError` of kind `noEnclosingRouter`.
///
/// The route pushed is the one the router's owner makes for the same component through its
/// stored properties (`\AuthComponent.logIn.resetPassword`): a navigator declares the screen
/// with that key path, and pushing the component again, either way, is refused as a duplicate.
@propertyWrapper
public struct EnclosingRouter: Sendable {
    let binding: EnclosingRouterBinding

    /// An unbound wrapper; the host binds it.
    public init() {
        binding = EnclosingRouterBinding()
    }

    /// The enclosing router, with `push` and `pop` only.
    public var wrappedValue: EnclosedRouter {
        EnclosedRouter(binding: binding)
    }
}

/// An enclosing router, seen from a nested component: it can push and pop, not replace.
public struct EnclosedRouter: Sendable {
    let binding: EnclosingRouterBinding

    /// Pushes the component at `keyPath`, written from the component holding the
    /// `@EnclosingRouter` (`\Self.resetPassword`).
    ///
    /// - Returns: Whether it was pushed; a refusal is reported as for `Router`.
    @discardableResult
    public func push<Base, Target: Routable>(
        _ keyPath: KeyPath<Base, Target>,
        animated: Bool = true,
        fileID: String = #fileID,
        line: UInt = #line
    ) -> Bool {
        navigate(keyPath, instance: nil, animated: animated, fileID: fileID, line: line)
    }

    /// Pushes the instance `instance` of the instance component at `keyPath`.
    @discardableResult
    public func push<Base, Target: Routable>(
        _ keyPath: KeyPath<Base, Target>,
        instance: UUID,
        animated: Bool = true,
        fileID: String = #fileID,
        line: UInt = #line
    ) -> Bool {
        navigate(keyPath, instance: instance, animated: animated, fileID: fileID, line: line)
    }

    /// Pops the enclosing router's top route.
    @discardableResult
    public func pop(animated: Bool = true, fileID: String = #fileID, line: UInt = #line) -> Bool {
        guard let (router, _) = resolve(route: "pop", fileID: fileID, line: line) else { return false }
        return router.pop(animated: animated, fileID: fileID, line: line)
    }

    /// Whether the host has bound this component to an enclosing router.
    public var isBound: Bool {
        binding.target != nil
    }

    private func navigate<Base, Target: Routable>(
        _ keyPath: KeyPath<Base, Target>,
        instance: UUID?,
        animated: Bool,
        fileID: String,
        line: UInt
    ) -> Bool {
        guard let (router, anchor) = resolve(route: String(describing: keyPath), fileID: fileID, line: line) else {
            return false
        }
        // A zero-size component shares its offset with its neighbours, which only its holder's
        // layout tells apart: measured from the holder.
        let base = MemoryLayout<Target>.size == 0 ? (anchor.identity, 0) : anchor.routeBase
        var route = Router.route(keyPath, instance: instance, anchor: base.anchor, baseOffset: base.offset)
        if anchor.type != ObjectIdentifier(Base.self) {
            route = .failure(
                RoutingError(
                    .notRoutable, route: String(describing: keyPath),
                    reason: "it is rooted in \(Base.self), but this @EnclosingRouter belongs to \(anchor.name)"
                ))
        }
        return router.navigate(.push, to: route, animated: animated, fileID: fileID, line: line)
    }

    private func resolve(route: String, fileID: String, line: UInt) -> (Router, EnclosingRouterBinding.Anchor)? {
        if let target = binding.target { return target }
        let error = RoutingError(
            .noEnclosingRouter, route: route,
            reason: "this component is not mounted under a router component"
        )
        Diagnostics.report(domain: "routing", "@EnclosingRouter refused: \(error)", fileID: fileID, line: line)
        return nil
    }
}

/// What the host binds an `@EnclosingRouter` to. A class: copies of the component share it.
final class EnclosingRouterBinding: @unchecked Sendable {  // State under its lock.
    struct Anchor {
        /// The node of the component holding the wrapper.
        let identity: ObjectIdentifier
        /// The type of the component holding the wrapper, and its name.
        let type: ObjectIdentifier
        let name: String
        /// Where the holder's storage is, as routes measure it: `anchor` `nil` and the holder's
        /// offset in the router's owner when the holder is stored in it (through stored
        /// components), so that a route pushed here is the one the owner's key path to the same
        /// component makes (`\Self.resetPassword` from `LogInComponent` and
        /// `\AuthComponent.logIn.resetPassword`); otherwise the nearest created (dynamic or
        /// instance) component the holder is stored in, and its offset there.
        let routeBase: (anchor: ObjectIdentifier?, offset: Int)
    }

    private let state = LockedState<(router: Router, anchor: Anchor)?>(nil)

    var target: (Router, Anchor)? {
        state.withLock { $0 }
    }

    func bind(_ router: Router, anchor: Anchor) {
        state.withLock { $0 = (router, anchor) }
    }

    func unbind() {
        state.withLock { $0 = nil }
    }
}
