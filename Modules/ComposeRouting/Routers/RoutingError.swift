/// Why a router refused a navigation. The stack is left as it was.
public struct RoutingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of navigation was refused.
    public enum Kind: String, Sendable {
        /// `pop()` with nothing above the root (or above the default content).
        case poppingRoot
        /// The key path does not lead to a component of the router's owner: a computed
        /// property, a value that is not a component, or a key path rooted in another type.
        case notRoutable
        /// A dynamic component that was never created, or an instance that does not exist.
        case notCreated
        /// The component is already on this router's stack.
        case alreadyOnStack
        /// `@EnclosingRouter` used by a component with no router above it.
        case noEnclosingRouter
        /// The key path cannot say which stored property it names: several properties of one
        /// zero-size component type sit at the same offset, and Swift key paths to them are
        /// equal. Give the type a stored property, or use distinct types.
        case ambiguous
    }

    /// What kind of navigation was refused.
    public let kind: Kind
    /// The route involved, as written.
    public let route: String
    /// What went wrong, and what to do.
    public let reason: String

    package init(_ kind: Kind, route: String, reason: String) {
        self.kind = kind
        self.route = route
        self.reason = reason
    }

    public var description: String {
        "\(kind.rawValue) \(route): \(reason)"
    }
}
