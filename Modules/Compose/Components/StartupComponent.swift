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
    func willBindRootComponent()
    func didBindRootComponent()
}

extension StartupComponent {
    public func willBindRootComponent() {}
    public func didBindRootComponent() {}
}
