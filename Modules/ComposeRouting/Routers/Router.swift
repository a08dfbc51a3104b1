import ComposeEmitters
import ComposeMachinery
import Foundation
import Observation

/// A stack of routes to the components of a router component: `Router(start: \Self.logIn)`.
///
/// ```swift
/// struct AuthComponent: RouterComponent {
///     let logIn = LogInComponent()
///     let signUp = SignUpComponent()
///     let router = Router(start: \Self.logIn)
///
///     var observers: Void {
///         logIn.openSignUp += { router.replace(\Self.signUp) }
///         signUp.openLogIn += { router.replace(\Self.logIn) }
///     }
/// }
/// ```
///
/// Routes are key paths from the router's owner to its child components (stored properties,
/// at any depth), to a `DynamicComponent` once it is created, or to an instance of an
/// `InstanceComponent`. The component host shows the top route; see `ComponentHost`.
///
/// ## Navigation
/// - ``replace(_:fileID:line:)`` makes the given route the whole stack (and its root).
/// - ``push(_:animated:fileID:line:)`` adds a route on top; ``pop(animated:fileID:line:)``
///   removes the top one; ``popToRoot(animated:fileID:line:)`` keeps only the root.
/// - A router made with ``init(label:)`` has *default content* (its owner's own view) under
///   its stack: its stack may be empty, and ``path`` is then `nil`.
///
/// ## Refusals
/// A navigation that cannot be done leaves the stack unchanged, returns `false`, sends a
/// ``RoutingError`` on ``errors`` and reports a `Diagnostic`: popping the root, a key path that
/// is a computed property, is rooted in another type or does not lead to a component, a
/// dynamic component that was never created, and a component already on the stack.
///
/// ## Threads and observation
/// A router can be used from any thread; each navigation is atomic. Changes are announced (the
/// emitters, Observation, the host) one at a time, in the order they were made, after the
/// router's lock is released: on the navigating thread, or, if another change is being
/// announced, by the thread announcing it, right after, before its navigation returns. ``path``, ``paths`` and ``routes``
/// take part in Swift's Observation, so a SwiftUI view follows the router without
/// `@ObservedObject`.
public final class Router: @unchecked Sendable, Observable, CustomStringConvertible {  // State under its lock.
    struct State {
        var stack: [Route] = []
        /// How many times each route is on the stack (0 or 1): the duplicate check in O(1).
        var onStack: Set<Route> = []
        /// The owner's type, from the start route or from the host that bound the router.
        var owner: (type: ObjectIdentifier, name: String)?
        weak var resolver: (any RouteResolving)?
        /// The change announced last (see ``Router/lastChange``).
        var lastChange: RouteChange?
    }

    let state: LockedState<State>
    let registrar = ObservationRegistrar()
    /// Announces changes one at a time, in the order they were made: each change is queued
    /// under the router's lock and announced after it is released, as a store notifies.
    let announcer = Relay<RouteChange>()
    /// Whether the router shows its owner's own content under its stack (``init(label:)``).
    public let hasDefaultContent: Bool
    /// A name for diagnostics and the event log.
    public let label: String

    /// Sends each push.
    public let didPush: ValueEmitter<RouteChange>
    /// Sends each pop and pop-to-root.
    public let didPop: ValueEmitter<RouteChange>
    /// Sends each replace, and each navigation to a routing path (kind `set`).
    public let didReplace: ValueEmitter<RouteChange>
    /// Sends each refused navigation.
    public let errors: ValueEmitter<RoutingError>

    /// A router whose owner shows its own content until something is pushed: the seed's
    /// `Router()` with `RouterView(router) { default view }`.
    public init(label: String? = nil) {
        self.hasDefaultContent = true
        self.label = label ?? "Router"
        self.state = LockedState(State())
        (didPush, didPop, didReplace, errors) = Self.emitters(self.label)
        announcer.start { [weak self] change in self?.announce(change) }
    }

    /// A router that starts at `start`, a key path from the router's owner to one of its
    /// components (`\Self.logIn`), or `\Self.self` for the owner's own content.
    ///
    /// - Precondition: `start` is a stored-property path. A computed property stops the
    ///   program here, at the declaration, since there is nothing else to show.
    public init<Owner, Start: Routable>(start: KeyPath<Owner, Start>, label: String? = nil) {
        self.hasDefaultContent = false
        self.label = label ?? "Router<\(Owner.self)>"
        guard let offset = MemoryLayout<Owner>.offset(of: start) else {
            preconditionFailure("Router(start: \(start)): the start route must be a stored property of \(Owner.self)")
        }
        if let ambiguity = Self.ambiguity(of: Owner.self, at: offset, Start.self) {
            preconditionFailure("Router(start: \(start)): \(ambiguity)")
        }
        let route = Route(
            keyPath: start,
            instance: nil,
            location: RouteLocation(anchor: nil, offset: offset, target: Start.self)
        )
        var initial = State()
        initial.stack = [route]
        initial.onStack = [route]
        initial.owner = (ObjectIdentifier(Owner.self), String(describing: Owner.self))
        self.state = LockedState(initial)
        (didPush, didPop, didReplace, errors) = Self.emitters(self.label)
        announcer.start { [weak self] change in self?.announce(change) }
    }

    deinit {
        announcer.stop()
    }

    private static func emitters(
        _ label: String
    ) -> (ValueEmitter<RouteChange>, ValueEmitter<RouteChange>, ValueEmitter<RouteChange>, ValueEmitter<RoutingError>) {
        (
            ValueEmitter(label: label + ".didPush"),
            ValueEmitter(label: label + ".didPop"),
            ValueEmitter(label: label + ".didReplace"),
            ValueEmitter(label: label + ".errors")
        )
    }

    // MARK: Reading

    /// The top route's key path; `nil` when a router with default content shows it.
    public var path: AnyKeyPath? {
        routes.last?.keyPath
    }

    /// The key paths of the stack, root first.
    public var paths: [AnyKeyPath] {
        routes.map(\.keyPath)
    }

    /// The stack, root first.
    public var routes: [Route] {
        registrar.access(self, keyPath: \.routes)
        return state.withLock { $0.stack }
    }

    /// The number of routes on the stack.
    public var depth: Int {
        routes.count
    }

    /// The change announced last, `nil` before the first: what a view adapter reads, as it
    /// follows ``routes``, to know whether to animate (``RouteChange/animated``).
    ///
    /// Set before the change's observers hear of it, so an Observation update or a handler of
    /// ``didPush`` reads the change it was told of (or a later one, if another thread navigated
    /// meanwhile).
    public var lastChange: RouteChange? {
        state.withLock { $0.lastChange }
    }

    // MARK: Navigating

    /// Pushes the component at `keyPath` (from the router's owner) on top of the stack.
    ///
    /// - Returns: Whether it was pushed; see "Refusals".
    @discardableResult
    public func push<Owner, Target: Routable>(
        _ keyPath: KeyPath<Owner, Target>,
        animated: Bool = true,
        fileID: String = #fileID,
        line: UInt = #line
    ) -> Bool {
        navigate(.push, to: makeRoute(keyPath, instance: nil), animated: animated, fileID: fileID, line: line)
    }

    /// Pushes the instance `instance` of the instance component at `keyPath`.
    ///
    /// - Returns: Whether it was pushed; see "Refusals".
    @discardableResult
    public func push<Owner, Target: Routable>(
        _ keyPath: KeyPath<Owner, Target>,
        instance: UUID,
        animated: Bool = true,
        fileID: String = #fileID,
        line: UInt = #line
    ) -> Bool {
        navigate(.push, to: makeRoute(keyPath, instance: instance), animated: animated, fileID: fileID, line: line)
    }

    /// Makes the component at `keyPath` the whole stack. Not animated.
    ///
    /// - Returns: Whether it was done; see "Refusals".
    @discardableResult
    public func replace<Owner, Target: Routable>(
        _ keyPath: KeyPath<Owner, Target>,
        fileID: String = #fileID,
        line: UInt = #line
    ) -> Bool {
        navigate(.replace, to: makeRoute(keyPath, instance: nil), animated: false, fileID: fileID, line: line)
    }

    /// Makes the instance `instance` of the instance component at `keyPath` the whole stack.
    @discardableResult
    public func replace<Owner, Target: Routable>(
        _ keyPath: KeyPath<Owner, Target>,
        instance: UUID,
        fileID: String = #fileID,
        line: UInt = #line
    ) -> Bool {
        navigate(.replace, to: makeRoute(keyPath, instance: instance), animated: false, fileID: fileID, line: line)
    }

    /// Removes the top route. Refused at the root (or, with default content, on an empty stack).
    @discardableResult
    public func pop(animated: Bool = true, fileID: String = #fileID, line: UInt = #line) -> Bool {
        navigate(.pop, to: nil, animated: animated, fileID: fileID, line: line)
    }

    /// Removes every route above the root (with default content: every route).
    @discardableResult
    public func popToRoot(animated: Bool = false, fileID: String = #fileID, line: UInt = #line) -> Bool {
        navigate(.popToRoot, to: nil, animated: animated, fileID: fileID, line: line)
    }

    /// Pushes or replaces with a route made elsewhere (an enclosing router, a routing path).
    @discardableResult
    package func navigate(
        _ kind: RouteChange.Kind,
        to made: Result<Route, RoutingError>?,
        animated: Bool,
        fileID: String = #fileID,
        line: UInt = #line
    ) -> Bool {
        EventLog.record(
            .navigation, source: label, payload: NavigationRequest(kind: kind.rawValue, target: made.flatMap { try? $0.get() }),
            subject: ObjectIdentifier(self))
        var route: Route?
        // Held from the check until the route leaves the stack (see `RouteResolving.reserve`).
        let resolver = self.resolver
        switch made {
        case .failure(let error)?:
            return refuse(error, fileID: fileID, line: line)
        case .success(let made)?:
            if let problem = resolver?.reserve(made, on: self) {
                return refuse(problem, fileID: fileID, line: line)
            }
            route = made
        case nil:
            break
        }
        let outcome: Result<RouteChange, RoutingError> = state.withLock { state in
            let previousTop = state.stack.last
            let minimum = hasDefaultContent ? 0 : 1
            var popped: [Route] = []
            var pushed: [Route] = []
            switch kind {
            case .push:
                guard let route else { preconditionFailure("push without a route") }
                if state.onStack.contains(route) {
                    let position = state.stack.firstIndex(of: route) ?? 0
                    return .failure(
                        RoutingError(
                            .alreadyOnStack, route: route.description,
                            reason: "it is already on \(label)'s stack at position \(position); pop back to it instead"
                        ))
                }
                state.stack.append(route)
                state.onStack.insert(route)
                pushed = [route]
            case .replace:
                guard let route else { preconditionFailure("replace without a route") }
                popped = state.stack  // Takes the old buffer: no copy.
                state.stack = [route]
                state.onStack = [route]
                pushed = [route]
            case .pop:
                guard state.stack.count > minimum else {
                    return .failure(
                        RoutingError(
                            .poppingRoot, route: state.stack.last?.description ?? "default content",
                            reason: "\(label) has nothing above its root to pop"
                        ))
                }
                let route = state.stack.removeLast()
                state.onStack.remove(route)
                popped = [route]
            case .popToRoot:
                if state.stack.count > minimum {
                    popped = Array(state.stack[minimum...])
                    state.stack.removeSubrange(minimum...)
                    for route in popped { state.onStack.remove(route) }
                }
            case .set:
                preconditionFailure("set goes through set(_:animated:)")
            }
            let change = RouteChange(
                kind: kind, popped: popped, pushed: pushed,
                previousTop: previousTop, top: state.stack.last, depth: state.stack.count, animated: animated
            )
            // Queued under the lock, so changes are announced in the order they were made.
            if !popped.isEmpty || !pushed.isEmpty { announcer.enqueue(change) }
            return .success(change)
        }
        switch outcome {
        case .failure(let error):
            if let route { resolver?.release([route], on: self) }
            return refuse(error, fileID: fileID, line: line)
        case .success(let change):
            if !change.popped.isEmpty { resolver?.release(change.popped, on: self) }
            announcer.drain()
            return true
        }
    }

    private func announce(_ change: RouteChange) {
        state.withLock { $0.lastChange = change }
        registrar.withMutation(of: self, keyPath: \.routes) {}
        EventLog.record(.route, source: label, payload: change, subject: ObjectIdentifier(self))
        resolver?.router(self, didChange: change)
        switch change.kind {
        case .push: didPush.send(change)
        case .pop, .popToRoot: didPop.send(change)
        case .replace, .set: didReplace.send(change)
        }
    }

    func refuse(_ error: RoutingError, fileID: String, line: UInt) -> Bool {
        Diagnostics.report(Diagnostic(domain: "routing", message: "\(label) refused: \(error)", fileID: fileID, line: line))
        errors.send(error)
        return false
    }

    /// A route to `keyPath` from the router's owner, or why there is none.
    private func makeRoute<Owner, Target: Routable>(
        _ keyPath: KeyPath<Owner, Target>,
        instance: UUID?
    ) -> Result<Route, RoutingError> {
        if let owner = state.withLock({ $0.owner }), owner.type != ObjectIdentifier(Owner.self) {
            return .failure(
                RoutingError(
                    .notRoutable, route: String(describing: keyPath),
                    reason: "it is rooted in \(Owner.self), but \(label) belongs to \(owner.name); "
                        + "nested components navigate through @EnclosingRouter"
                ))
        }
        return Self.route(keyPath, instance: instance, anchor: nil)
    }

    /// A route to `keyPath`, measured from `anchor` (`nil`: the router's owner), where `Base`
    /// lies `baseOffset` bytes into the anchor's storage (a component stored inside it).
    package static func route<Base, Target: Routable>(
        _ keyPath: KeyPath<Base, Target>,
        instance: UUID?,
        anchor: ObjectIdentifier?,
        baseOffset: Int = 0
    ) -> Result<Route, RoutingError> {
        guard let offset = MemoryLayout<Base>.offset(of: keyPath) else {
            return .failure(
                RoutingError(
                    .notRoutable, route: String(describing: keyPath),
                    reason: "it is not a stored property of \(Base.self) (a computed property, or through a class)"
                ))
        }
        if let ambiguity = ambiguity(of: Base.self, at: offset, Target.self) {
            return .failure(RoutingError(.ambiguous, route: String(describing: keyPath), reason: ambiguity))
        }
        return .success(
            Route(
                keyPath: keyPath,
                instance: instance,
                location: RouteLocation(anchor: anchor, offset: baseOffset + offset, target: Target.self)
            ))
    }

    /// Why a key path to a `Target` at `offset` of `Base` cannot name one stored property, or
    /// `nil`. Only a zero-size `Target` can be ambiguous: its properties share their offset, and
    /// key paths to stored properties are offsets (`\Pages.about == \Pages.terms`).
    package static func ambiguity<Base, Target>(of _: Base.Type, at offset: Int, _: Target.Type) -> String? {
        guard MemoryLayout<Target>.size == 0 else { return nil }
        let paths = FieldLayout.zeroSizePaths(in: Base.self, at: offset, of: Target.self)
        guard paths.count > 1 else { return nil }
        let names = paths.map { "\\\(Base.self).\($0)" }.joined(separator: ", ")
        return "\(names) are all a zero-size \(Target.self) at the same place, and Swift key paths to them are "
            + "equal, so no router can tell them apart; give \(Target.self) a stored property, or use distinct types"
    }

    /// `Router<AuthComponent>[\AuthComponent.logIn, \AuthComponent.signUp]`.
    public var description: String {
        "\(label)\(state.withLock { $0.stack })"
    }
}

extension EventLog.Event.Kind {
    /// A router's stack changed.
    public static let route = Self(rawValue: "route")
    /// A router was asked to navigate (recorded before it does, or refuses).
    public static let navigation = Self(rawValue: "navigation")
}

/// What a router was asked to do: the payload of a `navigation` event.
package struct NavigationRequest: Sendable, CustomStringConvertible {
    /// `push`, `pop`, `popToRoot`, `replace`, `set` (`RouteChange.Kind`), or `navigationPath`.
    package let kind: String
    /// The route pushed or replaced with, if any.
    package let target: Route?
    /// For `set` and `navigationPath`, the routes asked for.
    package let routes: [Route]

    package init(kind: String, target: Route? = nil, routes: [Route] = []) {
        self.kind = kind
        self.target = target
        self.routes = routes
    }

    package var description: String {
        target.map { "\(kind) \($0)" } ?? (routes.isEmpty && kind != "navigationPath" ? kind : "\(kind) \(routes)")
    }
}

extension Router: SubscriptionSource {
    /// The router's emitters.
    package var subscriptionIdentities: [ObjectIdentifier] {
        [didPush, didPop, didReplace].map(ObjectIdentifier.init) + [ObjectIdentifier(errors)]
    }
}
