import ComposeMachinery

/// The set of valid routing paths, declared in one place, and where each screen is shown.
///
/// ```swift
/// let appNavigator: Navigator = .screen(
///     HomeScreen.self, route: \AppComponent.home,
///     nesting: .anyOf(
///         .screen(SettingsScreen.self, route: \AppComponent.settings),
///         .screen(DetailScreen.self, route: \AppComponent.detail,
///                 make: { DetailComponent(id: $0.id) }, read: { DetailScreen(id: $0.id) })
///     )
/// )
/// // Valid: /home, /home/settings, /home/detail?id=0
/// ```
///
/// ## Composition
/// - ``screen(_:nesting:)`` and its `route:` overloads: one screen, then optionally a
///   navigator for what follows it. A path may end at any screen.
/// - ``anyOf(_:)-(Navigator...)``: the first navigator that takes the path wins; order matters.
/// - ``conditional(either:or:basedOn:label:)``: a condition, checked each time a path is
///   resolved, chooses the branch.
/// - ``wildcard(screen:navigator:)``: whatever the path's first screen is, it becomes `screen`;
///   what follows goes to `navigator`, and what it does not take is dropped. A wildcard never
///   refuses a non-empty path.
///
/// ## Resolving
/// ``resolve(_:)`` checks a path against the navigator and parses each screen's arguments, or
/// says which segment failed and why. Resolution is linear in the path's length for
/// navigators without `anyOf` (each `anyOf` tries its branches in order).
public struct Navigator: Sendable {
    indirect enum Node: @unchecked Sendable {  // Metatypes and Sendable closures.
        case screen(type: any Screen.Type, destination: Destination?, nesting: Navigator?)
        case anyOf([Navigator])
        case conditional(either: Navigator, or: Navigator, condition: @Sendable () -> Bool, label: String)
        case wildcard(screen: any Screen, navigator: Navigator)
    }

    let node: Node

    init(_ node: Node) {
        self.node = node
    }

    /// A screen with no destination in a component tree: enough to parse and resolve paths,
    /// not to show them.
    public static func screen<S: Screen>(_ type: S.Type, nesting: Navigator? = nil) -> Navigator {
        Navigator(.screen(type: type, destination: nil, nesting: nesting))
    }

    /// A screen shown by routing to the component at `route` (a stored property of a router
    /// component, `\AppComponent.home`).
    public static func screen<S: Screen, Owner, Target: Routable>(
        _ type: S.Type,
        route: KeyPath<Owner, Target>,
        nesting: Navigator? = nil
    ) -> Navigator {
        Navigator(.screen(type: type, destination: .component(S.self, route), nesting: nesting))
    }

    /// A screen shown by creating the dynamic component at `route` from the screen (`make`)
    /// and routing to it. `read` gives the screen back from the component, for reading the
    /// current path.
    ///
    /// `make` may refuse the screen by throwing (an entity the screen names does not exist):
    /// navigation then fails with a ``DeepLinkError`` of reason
    /// ``DeepLinkError/Reason/refused(screen:reason:)`` naming the segment, and nothing changes.
    ///
    /// `make` and `read` take the isolation of the code they are written in (main-actor code in
    /// an app target), and are called there: the host follows a path on the actor its
    /// components belong to. Debug builds trap, naming the actor, if one is called off it.
    public static func screen<S: Screen, Owner, Target: DynamicRoutable>(
        _ type: S.Type,
        route: KeyPath<Owner, Target>,
        @_inheritActorContext make: @escaping @isolated(any) @Sendable (S) throws -> Target.Made,
        @_inheritActorContext read: (@isolated(any) @Sendable (Target.Made) -> S)? = nil,
        nesting: Navigator? = nil
    ) -> Navigator {
        Navigator(
            .screen(
                type: type,
                destination: .dynamic(S.self, route, make: AssumedIsolationThrowing(make), read: read.map(reader)),
                nesting: nesting))
    }

    /// A screen shown by creating the dynamic component `find` gives for the screen, and routing
    /// to it; when `find` gives `nil` (`notes://list/note?id=9` and there is no note 9), the
    /// screen is refused with a ``DeepLinkError`` naming the segment, and nothing changes.
    public static func screen<S: Screen, Owner, Target: DynamicRoutable>(
        _ type: S.Type,
        route: KeyPath<Owner, Target>,
        @_inheritActorContext find: @escaping @isolated(any) @Sendable (S) -> Target.Made?,
        @_inheritActorContext read: (@isolated(any) @Sendable (Target.Made) -> S)? = nil,
        nesting: Navigator? = nil
    ) -> Navigator {
        Navigator(
            .screen(
                type: type, destination: .dynamic(S.self, route, make: finder(find), read: read.map(reader)),
                nesting: nesting))
    }

    /// A screen shown by creating an instance of the instance component at `route` from the
    /// screen (`make`) and routing to it. `read` gives the screen back from an instance.
    ///
    /// `make` may refuse the screen by throwing; see the dynamic component's overload, also for
    /// where `make` and `read` are called.
    public static func screen<S: Screen, Owner, Target: InstanceRoutable>(
        _ type: S.Type,
        route: KeyPath<Owner, Target>,
        @_inheritActorContext make: @escaping @isolated(any) @Sendable (S) throws -> Target.Made,
        @_inheritActorContext read: (@isolated(any) @Sendable (Target.Made) -> S)? = nil,
        nesting: Navigator? = nil
    ) -> Navigator {
        Navigator(
            .screen(
                type: type,
                destination: .instance(S.self, route, make: AssumedIsolationThrowing(make), read: read.map(reader)),
                nesting: nesting))
    }

    /// A screen shown by creating an instance from what `find` gives for the screen; `nil`
    /// refuses it (see the dynamic component's overload).
    public static func screen<S: Screen, Owner, Target: InstanceRoutable>(
        _ type: S.Type,
        route: KeyPath<Owner, Target>,
        @_inheritActorContext find: @escaping @isolated(any) @Sendable (S) -> Target.Made?,
        @_inheritActorContext read: (@isolated(any) @Sendable (Target.Made) -> S)? = nil,
        nesting: Navigator? = nil
    ) -> Navigator {
        Navigator(
            .screen(
                type: type, destination: .instance(S.self, route, make: finder(find), read: read.map(reader)),
                nesting: nesting))
    }

    /// `read`, kept for synchronous calls where it was written.
    private static func reader<S: Screen, Made>(
        _ read: @escaping @isolated(any) @Sendable (Made) -> S
    ) -> AssumedIsolationThrowing<Made, S> {
        AssumedIsolationThrowing(read)
    }

    /// `find` as a `make` that refuses the screen when `find` gives `nil`.
    private static func finder<S: Screen, Made>(
        _ find: @escaping @isolated(any) @Sendable (S) -> Made?
    ) -> AssumedIsolationThrowing<S, Made> {
        let kept = AssumedIsolationThrowing<S, Made?>(find)
        return AssumedIsolationThrowing(isolation: kept.isolation) { screen in
            try found(kept.callAssumingIsolation(screen), for: screen)
        }
    }

    /// What `find` gave, or the refusal of a screen it found nothing for.
    private static func found<S: Screen, Made>(_ made: Made?, for screen: S) throws -> Made {
        guard let made else { throw NothingFound(screen: RoutingPath.Element(screen).description) }
        return made
    }

    /// The first of `navigators` that takes the path.
    public static func anyOf(_ navigators: Navigator...) -> Navigator {
        Navigator(.anyOf(navigators))
    }

    /// The first of `navigators` that takes the path.
    public static func anyOf(_ navigators: [Navigator]) -> Navigator {
        Navigator(.anyOf(navigators))
    }

    /// `either` while `condition` holds, `or` otherwise; checked each time a path is resolved.
    ///
    /// - Parameters:
    ///   - either: The navigator that takes the path while `condition` holds.
    ///   - or: The navigator that takes the path otherwise.
    ///   - condition: Checked each time a path is resolved, on the resolving thread.
    ///   - label: How the condition is named in errors (`"logged in"`).
    public static func conditional(
        either: Navigator,
        or: Navigator,
        basedOn condition: @escaping @Sendable () -> Bool,
        label: String = "condition"
    ) -> Navigator {
        Navigator(.conditional(either: either, or: or, condition: condition, label: label))
    }

    /// Replaces the path's first screen, whatever it is, with `screen`, and gives the path to
    /// `navigator`; the segments `navigator` does not take are dropped.
    public static func wildcard(screen: some Screen, navigator: Navigator) -> Navigator {
        Navigator(.wildcard(screen: screen, navigator: navigator))
    }
}

/// A path checked against a navigator: each screen parsed, with where it is shown.
public struct ResolvedPath: Sendable {
    /// One screen of the path.
    public struct Element: @unchecked Sendable {  // The screen is Sendable.
        /// The parsed screen.
        public let screen: any Screen
        /// Where it is shown, if the navigator says.
        public let destination: Destination?
    }

    /// The screens, first to last.
    public let elements: [Element]

    /// The path as resolved: the screens as parsed (and printed back), with their own
    /// presentations, after any wildcard replaced or dropped segments.
    public var path: RoutingPath {
        RoutingPath(screens: elements.map(\.screen))
    }
}

extension Navigator {
    /// Checks `path` against the navigator and parses its screens.
    ///
    /// - Throws: ``DeepLinkError`` naming the failing segment: an unknown screen (with the
    ///   names expected there), malformed arguments, a parameter a screen does not take, a
    ///   segment after a screen that takes none, a branch refused by a condition.
    public func resolve(_ path: RoutingPath) throws(DeepLinkError) -> ResolvedPath {
        guard !path.elements.isEmpty else { throw DeepLinkError(segment: nil, .empty) }
        switch match(path.elements, at: 0) {
        case .success(let elements): return ResolvedPath(elements: elements)
        case .failure(let failure): throw failure.error
        }
    }

    struct Failure: Error {
        let error: DeepLinkError
        /// Whether the failing navigator recognised the segment's name (a more specific
        /// failure than an unknown name).
        let recognised: Bool

        var segment: Int { error.segment ?? -1 }
    }

    func match(_ path: [RoutingPath.Element], at index: Int) -> Result<[ResolvedPath.Element], Failure> {
        switch node {
        case .screen(let type, let destination, let nesting):
            return Self.matchScreen(type, destination: destination, nesting: nesting, path, at: index)
        case .anyOf(let navigators):
            var failures: [Failure] = []
            for navigator in navigators {
                switch navigator.match(path, at: index) {
                case .success(let elements): return .success(elements)
                case .failure(let failure): failures.append(failure)
                }
            }
            return .failure(Self.best(failures, at: index, path))
        case .conditional(let either, let or, let condition, let label):
            let holds = condition()
            let chosen = holds ? either : or
            let result = chosen.match(path, at: index)
            if case .failure(let failure) = result, case .success = (holds ? or : either).match(path, at: index) {
                let why = holds ? label : "not \(label)"
                return .failure(
                    Failure(
                        error: DeepLinkError(segment: failure.error.segment ?? index, .refusedByCondition(why)), recognised: true)
                )
            }
            return result
        case .wildcard(let screen, let navigator):
            guard index < path.count else { return navigator.match(path, at: index) }
            var replaced = Array(path[..<index])
            replaced.append(RoutingPath.Element(screen))
            replaced += path[(index + 1)...]
            switch navigator.match(replaced, at: index) {
            case .success(let elements):
                return .success(elements)
            case .failure(let failure) where failure.segment > index:
                // Drop what the navigator does not take; the part before it matched.
                return navigator.match(Array(replaced[..<failure.segment]), at: index)
            case .failure(let failure):
                return .failure(failure)
            }
        }
    }

    private static func matchScreen(
        _ type: any Screen.Type,
        destination: Destination?,
        nesting: Navigator?,
        _ path: [RoutingPath.Element],
        at index: Int
    ) -> Result<[ResolvedPath.Element], Failure> {
        guard index < path.count else { return .success([]) }
        let element = path[index]
        guard element.name == type.name else {
            return .failure(
                Failure(
                    error: DeepLinkError(segment: index, .unknownScreen(name: element.name, expected: [type.name])),
                    recognised: false
                ))
        }
        let screen: any Screen
        do {
            screen = try type.init(parameters: element.parameters)
        } catch {
            return .failure(
                Failure(
                    error: DeepLinkError(segment: index, .malformedArguments(screen: type.name, problem: "\(error)")),
                    recognised: true
                ))
        }
        let printed = Set(screen.parameters.names)
        if let extra = element.parameters.names.first(where: { !printed.contains($0) }) {
            return .failure(
                Failure(
                    error: DeepLinkError(segment: index, .unexpectedParameter(screen: type.name, name: extra)),
                    recognised: true
                ))
        }
        let resolved = ResolvedPath.Element(screen: screen, destination: destination)
        guard index + 1 < path.count else { return .success([resolved]) }
        guard let nesting else {
            return .failure(
                Failure(error: DeepLinkError(segment: index + 1, .unexpectedSegment(after: type.name)), recognised: true))
        }
        return nesting.match(path, at: index + 1).map { [resolved] + $0 }
    }

    /// The most telling of several failures: the one that got farthest, preferring a
    /// recognised name; unknown names at the same segment are merged into one list.
    private static func best(_ failures: [Failure], at index: Int, _ path: [RoutingPath.Element]) -> Failure {
        guard let farthest = failures.map(\.segment).max() else {
            return Failure(
                error: DeepLinkError(segment: index, .unknownScreen(name: path[index].name, expected: [])), recognised: false)
        }
        let candidates = failures.filter { $0.segment == farthest }
        if let recognised = candidates.first(where: \.recognised) { return recognised }
        var expected: [String] = []
        for failure in candidates {
            if case .unknownScreen(_, let names) = failure.error.reason {
                for name in names where !expected.contains(name) { expected.append(name) }
            }
        }
        guard farthest >= 0, farthest < path.count else { return candidates[0] }
        return Failure(
            error: DeepLinkError(segment: farthest, .unknownScreen(name: path[farthest].name, expected: expected)),
            recognised: false
        )
    }

    /// Every destination of the navigator, with its screen type (for reading a path back).
    package var destinations: [(type: any Screen.Type, destination: Destination)] {
        switch node {
        case .screen(let type, let destination, let nesting):
            return (destination.map { [(type, $0)] } ?? []) + (nesting?.destinations ?? [])
        case .anyOf(let navigators):
            return navigators.flatMap(\.destinations)
        case .conditional(let either, let or, _, _):
            return either.destinations + or.destinations
        case .wildcard(_, let navigator):
            return navigator.destinations
        }
    }
}

/// A `find:` destination found nothing for its screen.
struct NothingFound: Error, CustomStringConvertible {
    let screen: String

    var description: String {
        "nothing was found for \(screen)"
    }
}
