/// What a router asks of the component host that shows it. The host binds itself when it
/// mounts the router's owner; an unbound router checks only what it can alone (types,
/// stored-property paths, its own stack).
package protocol RouteResolving: AnyObject, Sendable {
    /// Why `route` cannot be shown now (a dynamic component not created, an unknown instance,
    /// no component at that location), or `nil`.
    func problem(with route: Route, on router: Router) -> RoutingError?
    /// Called after every change of the router's stack, outside the router's lock, in order.
    func router(_ router: Router, didChange change: RouteChange)
}
