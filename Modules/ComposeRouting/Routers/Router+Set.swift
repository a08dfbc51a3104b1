import ComposeEmitters
import ComposeMachinery
import Observation

// Setting a whole stack at once: a routing path's (a deep link's), checked first.

extension Router {
    /// Why ``set(_:animated:fileID:line:)`` would refuse `routes`, or `nil`; changes nothing.
    ///
    /// - Parameter created: Routes to components that are not created yet and will be before the
    ///   stack is set (a deep link's plan); the host is not asked about them.
    package func problem(setting routes: [Route], created: Set<Route> = []) -> RoutingError? {
        if routes.isEmpty && !hasDefaultContent {
            return RoutingError(.poppingRoot, route: "[]", reason: "\(label) needs a root route")
        }
        if Set(routes).count != routes.count {
            return RoutingError(.alreadyOnStack, route: "\(routes)", reason: "a route appears twice")
        }
        let current = Set(state.withLock { $0.stack })
        for route in routes where !current.contains(route) && !created.contains(route) {
            if let problem = resolver?.problem(with: route, on: self) { return problem }
        }
        return nil
    }

    /// Makes the stack exactly `routes` (a routing path's), keeping the common bottom part.
    ///
    /// - Returns: Whether it was done: refused if a route appears twice, if a start-route
    ///   router would be left without a root, or if the host refuses a route.
    @discardableResult
    package func set(_ routes: [Route], animated: Bool, fileID: String = #fileID, line: UInt = #line) -> Bool {
        EventLog.record(
            .navigation, source: label, payload: NavigationRequest(kind: "set", routes: routes), subject: ObjectIdentifier(self))
        if let problem = problem(setting: routes) { return refuse(problem, fileID: fileID, line: line) }
        let resolver = self.resolver
        let wanted = Set(routes)
        while true {
            // The routes that join the stack are held from here (see `RouteResolving.reserve`),
            // and committed only onto the stack they were chosen against; another thread's change
            // in between means choosing again.
            let before = state.withLock { $0.stack }
            let joining = routes.filter { !before.contains($0) }
            var reserved: [Route] = []
            for route in joining {
                if let problem = resolver?.reserve(route, on: self) {
                    resolver?.release(reserved, on: self)
                    return refuse(problem, fileID: fileID, line: line)
                }
                reserved.append(route)
            }
            let change: RouteChange? = state.withLock { state in
                guard state.stack == before else { return nil }
                let previousTop = state.stack.last
                var common = 0
                while common < min(state.stack.count, routes.count), state.stack[common] == routes[common] { common += 1 }
                let popped = Array(state.stack[common...])
                state.stack = routes
                state.onStack = wanted
                let change = RouteChange(
                    kind: .set, popped: popped, pushed: Array(routes[common...]),
                    previousTop: previousTop, top: routes.last, depth: routes.count, animated: animated
                )
                if !change.popped.isEmpty || !change.pushed.isEmpty { announcer.enqueue(change) }
                return change
            }
            guard change != nil else {
                resolver?.release(reserved, on: self)
                continue
            }
            // The routes that left the stack (a route that moved stays held).
            resolver?.release(before.filter { !wanted.contains($0) }, on: self)
            announcer.drain()
            return true
        }
    }
}
