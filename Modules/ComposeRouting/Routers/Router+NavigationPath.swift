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
}
