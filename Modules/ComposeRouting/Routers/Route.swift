import Foundation

/// One entry of a router's stack: the key path it was given, and, for an instance component,
/// which instance.
///
/// Two routes are equal when they lead to the same component (or the same instance), however
/// they were written: `\AuthComponent.logIn` pushed by the router's owner and `\Self.self`
/// pushed from inside `LogInComponent` by its enclosing router are one route.
public struct Route: Hashable, @unchecked Sendable, CustomStringConvertible {  // Key paths are immutable.
    /// The key path the route was given, rooted in the component that gave it.
    public let keyPath: AnyKeyPath
    /// The instance of an `InstanceComponent` this route shows, if any.
    public let instance: UUID?
    /// Where the route leads, for the component host.
    package let location: RouteLocation

    package init(keyPath: AnyKeyPath, instance: UUID?, location: RouteLocation) {
        self.keyPath = keyPath
        self.instance = instance
        self.location = location
    }

    public static func == (lhs: Route, rhs: Route) -> Bool {
        lhs.location == rhs.location && lhs.instance == rhs.instance
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(location)
        hasher.combine(instance)
    }

    /// The key path, and the instance if any: `\AuthComponent.logIn`.
    public var description: String {
        let path = String(describing: keyPath)
        return instance.map { "\(path)[\($0.uuidString.prefix(8))]" } ?? path
    }
}

/// Where a route leads: a stored property path (a byte offset) of a component, and the type
/// found there. Resolved by the component host to a component of its tree.
package struct RouteLocation: Hashable, Sendable {
    /// The component the offset is measured from: `nil` for the router's owner; for a route
    /// pushed through an enclosing router, the component that pushed it.
    package let anchor: ObjectIdentifier?
    /// The byte offset of the target in the anchor's storage.
    package let offset: Int
    /// The target's type.
    package let target: ObjectIdentifier
    /// The target type's name, for messages.
    package let targetName: String
    /// The target's type.
    package var targetType: Any.Type { type.type }
    private let type: SendableType

    /// A metatype, immutable.
    private struct SendableType: @unchecked Sendable {
        let type: Any.Type
    }

    package init(anchor: ObjectIdentifier?, offset: Int, target: Any.Type) {
        self.anchor = anchor
        self.offset = offset
        self.target = ObjectIdentifier(target)
        self.targetName = String(describing: target)
        self.type = SendableType(type: target)
    }

    package static func == (lhs: RouteLocation, rhs: RouteLocation) -> Bool {
        lhs.anchor == rhs.anchor && lhs.offset == rhs.offset && lhs.target == rhs.target
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(anchor)
        hasher.combine(offset)
        hasher.combine(target)
    }
}
