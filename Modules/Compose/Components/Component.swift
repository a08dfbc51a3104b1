import ComposeRouting

/// A building block of an app: a struct holding emitters, stores and child components, and
/// the observers that connect them.
///
/// ```swift
/// struct AuthComponent: Component {
///     let logIn = SignalEmitter()
///
///     var observers: Void {
///         didAppear += { print("Component appeared.") }
///         logIn += { print("Log In tapped.") }
///     }
/// }
/// ```
///
/// A ``ComponentHost`` runs a tree of components: it evaluates each component's ``observers``
/// once, when the component joins the tree, inside the component's own `ObservationScope`, and
/// cancels every observer it set up when the component leaves the tree. Never read
/// `observers` yourself.
///
/// ## The tree
/// A component's children are its stored properties that are components, `DynamicComponent`s
/// (once created) and `InstanceComponent`s (each instance). The host finds them by their
/// stored-property layout, so a component must be a struct and its children stored properties
/// of it (not inside an array or an optional).
///
/// ## Observing
/// A component observes its own emitters and stores and its descendants', never its
/// ancestors': in debug builds, subscribing from `observers` to an emitter or store of a
/// component that is not this one or one of its descendants is reported as a `Diagnostic`.
/// (Services' emitters belong to no component, and anyone may observe them.)
///
/// ## Isolation
/// `Component` is not `Sendable`, so that a main-actor app target's components are main-actor
/// types: there, Swift 6.2 infers a main-actor isolated conformance, and `observers` and the
/// handlers written in it may call the app's main-actor code (`services.user.login()`), and a
/// component may also conform to SwiftUI's `View` in the same declaration. Such a component is
/// mounted by a host made on the main actor, which applies every change there (see
/// ``ComponentHost``). In a nonisolated module a component struct of `Sendable` stored properties
/// is `Sendable` by inference; a `public` one says `Sendable` itself, since its handlers capture it.
public protocol Component: Routable {
    /// Sets up the component's observers: `emitter += { ... }`, `$state.observe(...)`. Write
    /// `None` for a component without observers.
    var observers: Void { get }
}

/// The value of an empty ``Component/observers``: `var observers: Void { None }`.
public let None: Void = ()
