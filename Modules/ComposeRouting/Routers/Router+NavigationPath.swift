import ComposeEmitters
import ComposeMachinery

extension Router {
    /// The routes a navigation stack shows above its root, as SwiftUI's `NavigationStack(path:)`
    /// binds to them: the stack without its root route (with default content, the whole stack,
    /// whose root is the owner itself).
    ///
    /// Each ``Route`` is a stable `Hashable` identifier: the same component (or the same instance
    /// of an `InstanceComponent`) always has the same route, and a route appears at most once.
    ///
    /// Setting it is what a back gesture does: a shorter array that is a prefix of the current one
    /// pops the routes above it, and the host destroys the dynamic components and instances they
    /// led to. Anything else (a longer array, a different route) is refused, reported as a
    /// `Diagnostic` and on ``errors``, and changes nothing: navigation forward goes through
    /// ``push(_:animated:fileID:line:)`` and the other methods, which know what to create. Use
    /// ``setNavigationPath(_:animated:fileID:line:)`` to be told why.
    ///
    /// Observable, like ``routes``.
    public var navigationPath: [Route] {
        get { Array(routes.dropFirst(hasDefaultContent ? 0 : 1)) }
        set { _ = try? setNavigationPath(newValue, animated: true) }
    }

    /// Sets ``navigationPath`` to `path`, a prefix of it, popping the routes above, in one step:
    /// the check and the pop happen together, so a navigation another thread makes meanwhile is
    /// either seen by the check or made after the pop.
    ///
    /// - Throws: ``RoutingError`` of kind `notRoutable` when `path` is not a prefix of the current
    ///   path: it is reported as a `Diagnostic` and on ``errors`` too, and nothing changes.
    public func setNavigationPath(
        _ path: [Route],
        animated: Bool = true,
        fileID: String = #fileID,
        line: UInt = #line
    ) throws(RoutingError) {
        if let error = shortenNavigationPath(to: path, animated: animated) {
            _ = refuse(error, fileID: fileID, line: line)
            throw error
        }
    }

    /// Pops the routes above `path`, which must be a prefix of the routes above the root: one
    /// change under the lock, so a navigation by another thread cannot slip between the check and
    /// the pop. See ``setNavigationPath(_:animated:fileID:line:)``.
    ///
    /// - Returns: The refusal, or `nil` when the path was set (or already was the path).
    func shortenNavigationPath(to path: [Route], animated: Bool) -> RoutingError? {
        EventLog.record(
            .navigation, source: label, payload: NavigationRequest(kind: "navigationPath", routes: path),
            subject: ObjectIdentifier(self))
        let root = hasDefaultContent ? 0 : 1
        let resolver = self.resolver
        let outcome: Result<[Route], RoutingError> = state.withLock { state in
            let current = state.stack.dropFirst(root)
            guard path.count <= current.count, current.prefix(path.count).elementsEqual(path) else {
                return .failure(
                    RoutingError(
                        .notRoutable, route: "\(path)",
                        reason: "a navigation path can only be shortened (a back gesture); \(label) shows \(Array(current))"
                    ))
            }
            guard path.count < current.count else { return .success([]) }
            let previousTop = state.stack.last
            let popped = Array(state.stack[(root + path.count)...])
            state.stack.removeSubrange((root + path.count)...)
            for route in popped { state.onStack.remove(route) }
            announcer.enqueue(
                RouteChange(
                    kind: .pop, popped: popped, pushed: [],
                    previousTop: previousTop, top: state.stack.last, depth: state.stack.count, animated: animated
                ))
            return .success(popped)
        }
        switch outcome {
        case .failure(let error):
            return error
        case .success(let popped):
            guard !popped.isEmpty else { return nil }
            resolver?.release(popped, on: self)
            announcer.drain()
            return nil
        }
    }
}
