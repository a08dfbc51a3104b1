import ComposeMachinery
import Foundation

/// A routable target created at run time from a screen's arguments: `DynamicComponent`.
///
/// Not `Sendable`, so that a main-actor app's component, whose conformance is isolated to the
/// main actor, can be its `Made` in a navigator's declaration (see ``Destination``).
public protocol DynamicRoutable: Routable {
    /// What is created: the component.
    associatedtype Made
    /// Creates the target's content.
    func create(_ made: Made)
    /// The created content, if any.
    var created: Made? { get }
}

/// A routable target of many instances, each created from a screen's arguments:
/// `InstanceComponent`.
public protocol InstanceRoutable: Routable {
    /// What each instance is: the component.
    associatedtype Made
    /// Creates an instance; returns its id.
    func create(_ made: Made) -> UUID
    /// Creates an instance with the id `id`, chosen beforehand (a deep link plans its routes
    /// before it creates anything). Returns `false`, creating nothing, if the id is taken.
    @discardableResult
    func create(_ made: Made, id: UUID) -> Bool
    /// The instance `id`, if it exists.
    func instance(for id: UUID) -> Made?
}

/// Where a screen is shown: a route from a router component (its *owner*) to one of its
/// components, created from the screen's arguments when needed.
///
/// Made by ``Navigator/screen(_:route:nesting:)`` and its overloads; the component host
/// applies it.
///
/// Its closures use the target's conformance (`DynamicComponent<Note>` creating a `Note`), which
/// in a main-actor app target is isolated to the main actor (`Note: Component` there), so they
/// are not `@Sendable`: a navigator is shared freely, and its routes are followed where the host
/// runs, on the main actor in such an app. `DynamicRoutable` and `InstanceRoutable` do not
/// require `Sendable` for the same reason: a `Sendable` generic parameter refuses an isolated
/// conformance (`MainActorNavigatorTests`).
public struct Destination: @unchecked Sendable {  // Immutable; closures run where the host runs.
    /// The owner's type.
    package let owner: ObjectIdentifier
    package let ownerType: Any.Type
    package var ownerName: String { "\(ownerType)" }
    /// The route's key path, for messages: `\AuthComponent.logIn`.
    package let routeName: String
    /// Where the route leads in the owner.
    package let location: RouteLocation
    /// The type of the component the route shows (for a dynamic or instance target, the type
    /// created), so the host knows whether the path continues on its router.
    package let shownType: Any.Type
    /// Plans what the screen needs in `owner` (a value of the owner's type) without changing
    /// anything: the route to push, the component it will show, and the creation to perform
    /// when the whole path has been checked.
    package let prepare: (_ owner: Any, _ screen: any Screen) throws -> Prepared
    /// The screen standing for `route` on `owner`'s router, if one can be told.
    package let readScreen: (_ owner: Any, _ route: Route) -> (any Screen)?
    /// The component `route` shows in `owner` (for following the path to nested routers).
    package let shown: (_ owner: Any, _ route: Route) -> Any?

    /// A screen's route, planned: nothing is created until ``create`` runs.
    package struct Prepared: @unchecked Sendable {  // The component shown is Sendable.
        package let route: Route
        /// The component the route will show (for following the path to nested routers).
        package let shown: Any?
        /// Creates the dynamic component or instance the route leads to; `nil` for a stored
        /// component.
        package let create: (() -> Void)?
    }

    /// A route to a component stored in the owner.
    static func component<S: Screen, Owner, Target: Routable>(_: S.Type, _ keyPath: KeyPath<Owner, Target>) -> Destination {
        let location = locate(keyPath)
        let route = Route(keyPath: keyPath, instance: nil, location: location)
        // Erased, so the closures capture no metatype of the target (a main-actor component's
        // metatype is not Sendable): reading through `AnyKeyPath` gives `nil` for another owner.
        let shared = SharedKeyPath(keyPath: keyPath as AnyKeyPath)
        return Destination(
            owner: ObjectIdentifier(Owner.self), ownerType: Owner.self, routeName: "\(keyPath)", location: location,
            shownType: Target.self,
            prepare: { owner, _ in Prepared(route: route, shown: owner[keyPath: shared.keyPath], create: nil) },
            readScreen: { _, _ in try? S(parameters: ScreenParameters()) },
            shown: { owner, _ in owner[keyPath: shared.keyPath] }
        )
    }

    /// A route to a dynamic target, created from the screen.
    static func dynamic<S: Screen, Owner, Target: DynamicRoutable>(
        _: S.Type,
        _ keyPath: KeyPath<Owner, Target>,
        make: AssumedIsolationThrowing<S, Target.Made>,
        read: AssumedIsolationThrowing<Target.Made, S>?
    ) -> Destination {
        let location = locate(keyPath)
        let route = Route(keyPath: keyPath, instance: nil, location: location)
        let shared = SharedKeyPath(keyPath: keyPath)
        return Destination(
            owner: ObjectIdentifier(Owner.self), ownerType: Owner.self, routeName: "\(keyPath)", location: location,
            shownType: Target.Made.self,
            prepare: { owner, screen in
                let made = try make.callAssumingIsolation(screen as! S)
                let target = (owner as! Owner)[keyPath: shared.keyPath]
                return Prepared(route: route, shown: made, create: { target.create(made) })
            },
            readScreen: { owner, _ in
                guard let read, let made = (owner as? Owner)?[keyPath: shared.keyPath].created else { return nil }
                return try? read.callAssumingIsolation(made)
            },
            shown: { owner, _ in (owner as? Owner)?[keyPath: shared.keyPath].created }
        )
    }

    /// A route to a new instance of an instance target, created from the screen.
    static func instance<S: Screen, Owner, Target: InstanceRoutable>(
        _: S.Type,
        _ keyPath: KeyPath<Owner, Target>,
        make: AssumedIsolationThrowing<S, Target.Made>,
        read: AssumedIsolationThrowing<Target.Made, S>?
    ) -> Destination {
        let location = locate(keyPath)
        let shared = SharedKeyPath(keyPath: keyPath)
        return Destination(
            owner: ObjectIdentifier(Owner.self), ownerType: Owner.self, routeName: "\(keyPath)", location: location,
            shownType: Target.Made.self,
            prepare: { owner, screen in
                let made = try make.callAssumingIsolation(screen as! S)
                let target = (owner as! Owner)[keyPath: shared.keyPath]
                let id = UUID()
                return Prepared(
                    route: Route(keyPath: shared.keyPath, instance: id, location: location),
                    shown: made,
                    create: { target.create(made, id: id) }
                )
            },
            readScreen: { owner, route in
                guard let read, let id = route.instance, let made = (owner as? Owner)?[keyPath: shared.keyPath].instance(for: id)
                else {
                    return nil
                }
                return try? read.callAssumingIsolation(made)
            },
            shown: { owner, route in route.instance.flatMap { (owner as? Owner)?[keyPath: shared.keyPath].instance(for: $0) } }
        )
    }

    /// A key path, immutable, hence safe to share.
    struct SharedKeyPath<KeyPathType: AnyKeyPath>: @unchecked Sendable {  // Key paths are immutable.
        let keyPath: KeyPathType
    }

    private static func locate<Owner, Target: Routable>(_ keyPath: KeyPath<Owner, Target>) -> RouteLocation {
        guard let offset = MemoryLayout<Owner>.offset(of: keyPath) else {
            preconditionFailure("Navigator: the route \(keyPath) must be a stored property of \(Owner.self)")
        }
        if let ambiguity = Router.ambiguity(of: Owner.self, at: offset, Target.self) {
            preconditionFailure("Navigator: the route \(keyPath): \(ambiguity)")
        }
        return RouteLocation(anchor: nil, offset: offset, target: Target.self)
    }

    /// Whether `route`, on a router owned by a value of type `owner`, is this destination's.
    package func matches(_ route: Route, owner: ObjectIdentifier) -> Bool {
        owner == self.owner && route.location.anchor == nil && route.location == location
    }
}
