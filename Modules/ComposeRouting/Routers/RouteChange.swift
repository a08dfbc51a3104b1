/// What a router did: the routes that left the top of its stack and those that joined it.
///
/// A navigation costs the same however deep the stack is, so a change does not carry the
/// whole stack: read ``Router/routes`` for that.
public struct RouteChange: Sendable, Equatable, CustomStringConvertible {
    /// The kind of navigation.
    public enum Kind: String, Sendable {
        /// A route pushed on top.
        case push
        /// The top route popped.
        case pop
        /// Every route above the root popped.
        case popToRoot
        /// The whole stack replaced by one route.
        case replace
        /// The whole stack set to a routing path's routes.
        case set
    }

    /// What the router did.
    public let kind: Kind
    /// The routes that left the stack, bottom first: the popped ones, or for a replace the
    /// whole old stack.
    public let popped: [Route]
    /// The routes that joined the stack, bottom first.
    public let pushed: [Route]
    /// The top route before; `nil` when a router with default content showed it.
    public let previousTop: Route?
    /// The top route after; `nil` when a router with default content shows it.
    public let top: Route?
    /// The number of routes on the stack after.
    public let depth: Int
    /// Whether a view would animate the change (push and pop; replace never animates).
    public let animated: Bool

    package init(kind: Kind, popped: [Route], pushed: [Route], previousTop: Route?, top: Route?, depth: Int, animated: Bool) {
        self.kind = kind
        self.popped = popped
        self.pushed = pushed
        self.previousTop = previousTop
        self.top = top
        self.depth = depth
        self.animated = animated
    }

    /// `push +[\A.c] (depth 3)`.
    public var description: String {
        let removed = popped.isEmpty ? "" : " -\(popped)"
        let added = pushed.isEmpty ? "" : " +\(pushed)"
        return "\(kind.rawValue)\(removed)\(added) (depth \(depth))"
    }
}
