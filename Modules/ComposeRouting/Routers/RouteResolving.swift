/// What a router asks of the component host that shows it. The host binds itself when it
/// mounts the router's owner; an unbound router checks only what it can alone (types,
/// stored-property paths, its own stack).
package protocol RouteResolving: AnyObject, Sendable {
    /// Why `route` cannot be shown now (a dynamic component not created, an unknown instance,
    /// no component at that location), or `nil`. Changes nothing.
    func problem(with route: Route, on router: Router) -> RoutingError?
    /// `problem(with:on:)`, and if there is none, holds what `route` leads to for the router,
    /// atomically with the check: a created component it leads to cannot be destroyed until the
    /// route is released (a destroy racing a push is refused, or the push is). The router
    /// reserves a route before it puts it on its stack, and releases it when the route leaves
    /// the stack, or if it is not put there after all.
    func reserve(_ route: Route, on router: Router) -> RoutingError?
    /// Releases routes reserved with ``reserve(_:on:)``.
    func release(_ routes: [Route], on router: Router)
    /// Called after every change of the router's stack, outside the router's lock, in order.
    func router(_ router: Router, didChange change: RouteChange)
}
