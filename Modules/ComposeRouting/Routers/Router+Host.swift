import ComposeEmitters
import ComposeMachinery
import Observation

// The host that shows the router: binding, and what it resets.

extension Router {
    /// The host that shows this router.
    package var resolver: (any RouteResolving)? {
        state.withLock { $0.resolver }
    }

    /// Binds the router to the host that mounted its owner, of type `owner`.
    package func bind(owner: Any.Type, resolver: any RouteResolving) {
        state.withLock { state in
            state.owner = (ObjectIdentifier(owner), String(describing: owner))
            state.resolver = resolver
        }
    }

    /// Unbinds the router from `resolver`, if it is still its host.
    package func unbind(from resolver: any RouteResolving) {
        state.withLock { state in
            if state.resolver === resolver { state.resolver = nil }
        }
    }

    /// Removes `routes` from the stack without announcing a navigation (the host, when the
    /// components they lead to leave the tree with their owner).
    package func reset(to routes: [Route]) {
        state.withLock { state in
            state.stack = routes
            state.onStack = Set(routes)
        }
        registrar.withMutation(of: self, keyPath: \.routes) {}
    }
}
