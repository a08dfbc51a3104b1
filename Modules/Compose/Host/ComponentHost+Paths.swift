import ComposeEmitters
import ComposeMachinery
import ComposeRouting

extension ComponentHost {
    /// Navigates the tree along `path`: every router on the way gets exactly the path's routes
    /// for it, creating the dynamic and instance components they need.
    ///
    /// ```swift
    /// try host.navigate(to: RoutingPath(parsing: "/home/detail?id=0"), with: appNavigator)
    /// ```
    ///
    /// The path is resolved against `navigator` (conditions are checked now). Its screens go
    /// on the root's router, in order, until one shows a router component; the following ones
    /// go on that component's router, and so on. A router whose component ends the path
    /// returns to its root. A route already on a router, at its place, for the same screen, is
    /// kept (its component is not made again), so navigating to the current path changes
    /// nothing.
    ///
    /// - Throws: ``/ComposeRouting/DeepLinkError``: the path does not resolve, a screen is not on the router
    ///   the path reaches there, a screen has no destination, a screen appears twice on one
    ///   router, a destination refuses its screen (its `make:` threw, or its `find:` found
    ///   nothing), or a router would refuse its routes. Nothing has changed then: the whole plan,
    ///   every router's new stack, is worked out and checked before any component is created and
    ///   before any router moves. (Another thread navigating the same routers at the same moment
    ///   can still make a router refuse after the checks; the error says so.)
    public func navigate(to path: RoutingPath, with navigator: Navigator) throws(DeepLinkError) {
        EventLog.record(.deepLink, source: core.label, payload: path.description, subject: ObjectIdentifier(core))
        // What the navigation does (routes set, components created) follows from the link.
        try EventLog.asConsequence { () throws(DeepLinkError) in try navigateNow(to: path, with: navigator) }
    }

    private func navigateNow(to path: RoutingPath, with navigator: Navigator) throws(DeepLinkError) {
        let resolved = try navigator.resolve(path)
        let steps = try prepare(plan(resolved))
        // Everything was checked: create what the path needs, then set every router.
        for step in steps {
            for create in step.creations { create() }
        }
        for step in steps {
            guard let routes = step.routes else {
                step.router.popToRoot(animated: false)
                continue
            }
            // Refused only if another thread changed the tree since the checks.
            guard step.router.set(routes, animated: false) else {
                throw DeepLinkError(segment: nil, .routing("\(step.router.label) refused the path's routes"))
            }
        }
    }

    /// What navigating does to one router on the path.
    private struct Step {
        let router: Router
        /// The router's new stack; `nil`: back to its root.
        let routes: [Route]?
        /// The dynamic components and instances to create first.
        let creations: [() -> Void]
    }

    /// Works out every router's new stack and what must be created, and checks that each router
    /// would take its routes, without changing anything.
    private func prepare(_ groups: [[ResolvedPath.Element]]) throws(DeepLinkError) -> [Step] {
        var steps: [Step] = []
        var owner: Any = root
        var segment = 0
        for (position, group) in groups.enumerated() {
            guard let routerComponent = owner as? any RouterComponent else { break }
            let router = routerComponent.router
            guard !group.isEmpty else {
                steps.append(Step(router: router, routes: nil, creations: []))
                break
            }
            let current = router.routes
            var routes: [Route] = []
            var creations: [() -> Void] = []
            var created: Set<Route> = []
            var shown: Any?
            for (offset, element) in group.enumerated() {
                let destination = element.destination!
                if offset < current.count, destination.matches(current[offset], owner: ObjectIdentifier(type(of: owner))),
                    let screen = destination.readScreen(owner, current[offset]),
                    AnyHashable(screen) == AnyHashable(element.screen)
                {
                    routes.append(current[offset])
                    shown = destination.shown(owner, current[offset])
                } else {
                    let prepared: Destination.Prepared
                    do {
                        prepared = try destination.prepare(owner, element.screen)
                    } catch {
                        throw DeepLinkError(segment: segment, .refused(screen: type(of: element.screen).name, reason: "\(error)"))
                    }
                    routes.append(prepared.route)
                    shown = prepared.shown
                    if let create = prepared.create {
                        creations.append(create)
                        created.insert(prepared.route)
                    }
                }
                segment += 1
            }
            if let problem = router.problem(setting: routes, created: created) {
                throw DeepLinkError(segment: segment - 1, .routing("\(router.label) refused the path's routes: \(problem)"))
            }
            steps.append(Step(router: router, routes: routes, creations: creations))
            guard position + 1 < groups.count, let next = shown else { break }
            owner = next
        }
        return steps
    }

    /// Parses `link` and navigates along it; see ``navigate(to:with:)``.
    public func open(
        _ link: String,
        scheme: String? = nil,
        limits: DeepLinkLimits = .default,
        with navigator: Navigator
    ) throws(DeepLinkError) {
        try navigate(to: RoutingPath(parsing: link, scheme: scheme, limits: limits), with: navigator)
    }

    /// Re-resolves the current path, for when a navigator's condition changed (a user logged
    /// in or out): a path the condition now refuses moves to what the navigator gives instead
    /// (a wildcard's screen).
    public func refreshPath(with navigator: Navigator) throws(DeepLinkError) {
        try navigate(to: routingPath(with: navigator), with: navigator)
    }

    /// The tree's current routing path: the routes on the root's router, then on the router
    /// of the component its top route shows, and so on, as screens of `navigator`.
    ///
    /// - Throws: ``/ComposeRouting/DeepLinkError`` of reason `unrepresentable` for a route no screen of
    ///   `navigator` stands for, or whose screen cannot be read back (a dynamic or instance
    ///   component's screen needs `read:`).
    public func routingPath(with navigator: Navigator) throws(DeepLinkError) -> RoutingPath {
        let destinations = navigator.destinations
        var screens: [any Screen] = []
        var owner: Any = root
        while let routerComponent = owner as? any RouterComponent {
            let routes = routerComponent.router.routes
            var last: (Route, Destination)?
            for route in routes {
                let ownerType = ObjectIdentifier(type(of: owner))
                guard let match = destinations.first(where: { $0.destination.matches(route, owner: ownerType) }) else {
                    throw DeepLinkError(segment: screens.count, .unrepresentable(route: route.description))
                }
                guard let screen = match.destination.readScreen(owner, route) else {
                    throw DeepLinkError(
                        segment: screens.count,
                        .unrepresentable(route: "\(route) (\(match.type.name) cannot be read back from its component)")
                    )
                }
                screens.append(screen)
                last = (route, match.destination)
            }
            guard let (route, destination) = last, let shown = destination.shown(owner, route), shown is any RouterComponent
            else {
                break
            }
            owner = shown
        }
        return RoutingPath(screens: screens)
    }

    /// Splits a resolved path into the screens of each router along it, checking everything
    /// that can be checked before anything moves.
    private func plan(_ resolved: ResolvedPath) throws(DeepLinkError) -> [[ResolvedPath.Element]] {
        guard Root.self is any RouterComponent.Type else {
            let name = resolved.elements.first.map { type(of: $0.screen).name } ?? ""
            throw DeepLinkError(segment: 0, .notOnRouter(screen: name, router: "\(Root.self), which is not a router component"))
        }
        var groups: [[ResolvedPath.Element]] = [[]]
        var owner = (type: ObjectIdentifier(Root.self), name: "\(Root.self)")
        var seen: Set<RouteLocation> = []
        for (index, element) in resolved.elements.enumerated() {
            let name = type(of: element.screen).name
            guard let destination = element.destination else {
                throw DeepLinkError(segment: index, .noDestination(screen: name))
            }
            guard destination.owner == owner.type else {
                throw DeepLinkError(segment: index, .notOnRouter(screen: name, router: routerName(owner.name, for: destination)))
            }
            guard isInstanceRoute(destination) || seen.insert(destination.location).inserted else {
                throw DeepLinkError(segment: index, .routing("\(name) appears twice on the router of \(owner.name)"))
            }
            groups[groups.count - 1].append(element)
            if let routerType = destination.shownType as? any RouterComponent.Type {
                owner = (ObjectIdentifier(routerType), "\(routerType)")
                seen = []
                groups.append([])
            }
        }
        return groups
    }

    /// "the router of `owner`", and for a screen declared from a component that has no router
    /// (one that pushes through its `@EnclosingRouter`), how to declare it.
    private func routerName(_ owner: String, for destination: Destination) -> String {
        guard !(destination.ownerType is any RouterComponent.Type) else { return "the router of \(owner)" }
        let property = destination.routeName.split(separator: ".").dropFirst().joined(separator: ".")
        return "the router of \(owner): it is declared as \(destination.routeName), and \(destination.ownerName) is not a "
            + "router component; declare a component pushed through an @EnclosingRouter from the router's component, "
            + "through its stored properties (\\\(owner).<path to \(destination.ownerName)>.\(property))"
    }

    /// Whether a destination routes to new instances (which never repeat).
    private func isInstanceRoute(_ destination: Destination) -> Bool {
        destination.location.targetType is any InstanceComponentProtocol.Type
    }
}
