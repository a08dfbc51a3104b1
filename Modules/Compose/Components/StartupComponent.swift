/// The root component of an app, with hooks around the moment its tree is bound.
///
/// ```swift
/// struct AppComponent: RouterComponent, StartupComponent {
///     let auth = AuthComponent()
///     let home = HomeComponent()
///     let router = Router(start: \Self.auth)
///
///     func willBindRootComponent() { /* set up integrations */ }
///     func didBindRootComponent() { /* every component is bound */ }
/// }
///
/// let host = ComponentHost(AppComponent())
/// ```
///
/// `ComponentHost` calls ``willBindRootComponent()`` before it binds the tree and
/// ``didBindRootComponent()`` after every component's observers are set up, before anything
/// appears.
public protocol StartupComponent: Component {
    /// Called before the host binds the tree: set up what the tree's observers will need.
    func willBindRootComponent()
    /// Called once every component's observers are set up, before anything appears.
    func didBindRootComponent()
}

extension StartupComponent {
    /// Does nothing.
    public func willBindRootComponent() {}
    /// Does nothing.
    public func didBindRootComponent() {}
}
