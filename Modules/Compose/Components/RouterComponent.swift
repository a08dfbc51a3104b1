import ComposeRouting

/// A component that shows one of its child components at a time, through its ``router``.
///
/// ```swift
/// struct AuthComponent: RouterComponent {
///     let logIn = LogInComponent()
///     let signUp = SignUpComponent()
///     let router = Router(start: \Self.logIn)
/// }
/// ```
///
/// The host shows the router's top route: that component is visible while the router
/// component is, and the router component's other children are not. With `Router()` (default
/// content) and an empty stack, or a route to `\Self.self`, the router component shows only
/// itself.
public protocol RouterComponent: Component {
    /// The router of this component's children. Exactly one per router component.
    var router: Router { get }
}
