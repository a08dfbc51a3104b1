import Foundation

/// A routable target created at run time from a screen's arguments: `DynamicComponent`.
public protocol DynamicRoutable: Routable {
    associatedtype Made: Sendable
    /// Creates the target's content.
    func create(_ made: Made)
    /// The created content, if any.
    var created: Made? { get }
}

/// A routable target of many instances, each created from a screen's arguments:
/// `InstanceComponent`.
public protocol InstanceRoutable: Routable {
    associatedtype Made: Sendable
    /// Creates an instance; returns its id.
    func create(_ made: Made) -> UUID
    /// The instance `id`, if it exists.
    func instance(for id: UUID) -> Made?
}

/// Where a screen is shown: a route from a router component (its *owner*) to one of its
/// components, created from the screen's arguments when needed.
///
/// Made by ``Navigator/screen(_:route:nesting:)`` and its overloads; the component host
/// applies it.
public struct Destination: @unchecked Sendable {  // Closures and metatypes, immutable.
    /// The owner's type.
    package let owner: ObjectIdentifier
    package let ownerName: String
    /// Where the route leads in the owner.
    package let location: RouteLocation
    /// The type of the component the route shows (for a dynamic or instance target, the type
    /// created), so the host knows whether the path continues on its router.
    package let shownType: Any.Type
    /// Creates what the screen needs in `owner` (a value of the owner's type) and returns the
    /// route to push.
    package let makeRoute: @Sendable (_ owner: Any, _ screen: any Screen) -> Route
    /// The screen standing for `route` on `owner`'s router, if one can be told.
    package let readScreen: @Sendable (_ owner: Any, _ route: Route) -> (any Screen)?
    /// The component `route` shows in `owner` (for following the path to nested routers).
    package let shown: @Sendable (_ owner: Any, _ route: Route) -> Any?

    /// A route to a component stored in the owner.
    static func component<S: Screen, Owner, Target: Routable>(_: S.Type, _ keyPath: KeyPath<Owner, Target>) -> Destination {
        let location = locate(keyPath)
        let route = Route(keyPath: keyPath, instance: nil, location: location)
        let shared = SharedKeyPath(keyPath: keyPath)
        return Destination(
            owner: ObjectIdentifier(Owner.self), ownerName: "\(Owner.self)", location: location, shownType: Target.self,
            makeRoute: { _, _ in route },
            readScreen: { _, _ in try? S(parameters: ScreenParameters()) },
            shown: { owner, _ in (owner as? Owner)?[keyPath: shared.keyPath] }
        )
    }

    /// A route to a dynamic target, created from the screen.
    static func dynamic<S: Screen, Owner, Target: DynamicRoutable>(
        _: S.Type,
        _ keyPath: KeyPath<Owner, Target>,
        make: @escaping @Sendable (S) -> Target.Made,
        read: (@Sendable (Target.Made) -> S)?
    ) -> Destination {
        let location = locate(keyPath)
        let route = Route(keyPath: keyPath, instance: nil, location: location)
        let shared = SharedKeyPath(keyPath: keyPath)
        return Destination(
            owner: ObjectIdentifier(Owner.self), ownerName: "\(Owner.self)", location: location, shownType: Target.Made.self,
            makeRoute: { owner, screen in
                (owner as! Owner)[keyPath: shared.keyPath].create(make(screen as! S))
                return route
            },
            readScreen: { owner, _ in
                guard let read, let made = (owner as? Owner)?[keyPath: shared.keyPath].created else { return nil }
                return read(made)
            },
            shown: { owner, _ in (owner as? Owner)?[keyPath: shared.keyPath].created }
        )
    }

    /// A route to a new instance of an instance target, created from the screen.
    static func instance<S: Screen, Owner, Target: InstanceRoutable>(
        _: S.Type,
        _ keyPath: KeyPath<Owner, Target>,
        make: @escaping @Sendable (S) -> Target.Made,
        read: (@Sendable (Target.Made) -> S)?
    ) -> Destination {
        let location = locate(keyPath)
        let shared = SharedKeyPath(keyPath: keyPath)
        return Destination(
            owner: ObjectIdentifier(Owner.self), ownerName: "\(Owner.self)", location: location, shownType: Target.Made.self,
            makeRoute: { owner, screen in
                let id = (owner as! Owner)[keyPath: shared.keyPath].create(make(screen as! S))
                return Route(keyPath: shared.keyPath, instance: id, location: location)
            },
            readScreen: { owner, route in
                guard let read, let id = route.instance, let made = (owner as? Owner)?[keyPath: shared.keyPath].instance(for: id) else {
                    return nil
                }
                return read(made)
            },
            shown: { owner, route in route.instance.flatMap { (owner as? Owner)?[keyPath: shared.keyPath].instance(for: $0) } }
        )
    }

    /// A key path, immutable, hence safe to share.
    struct SharedKeyPath<Root, Value>: @unchecked Sendable {
        let keyPath: KeyPath<Root, Value>
    }

    private static func locate<Owner, Target: Routable>(_ keyPath: KeyPath<Owner, Target>) -> RouteLocation {
        guard let offset = MemoryLayout<Owner>.offset(of: keyPath) else {
            preconditionFailure("Navigator: the route \(keyPath) must be a stored property of \(Owner.self)")
        }
        return RouteLocation(anchor: nil, offset: offset, target: Target.self)
    }

    /// Whether `route`, on a router owned by a value of type `owner`, is this destination's.
    package func matches(_ route: Route, owner: ObjectIdentifier) -> Bool {
        owner == self.owner && route.location.anchor == nil && route.location == location
    }
}
