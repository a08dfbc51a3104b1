/// A shared piece of an app's structure, with its data and the methods that work on it,
/// available to every component as `services.<name>`.
///
/// ```swift
/// struct UserService: Service {
///     let store = Store<UserState>()
///     func login() { ... }
/// }
///
/// extension Services {
///     var user: UserService {
///         get { self[UserService.self] }
///         set { self[UserService.self] = newValue }
///     }
/// }
///
/// // In any component:
/// login += { services.user.login() }
/// ```
///
/// A service is created lazily, the first time it is read, exactly once (see ``Services``).
///
/// ## Isolation
/// In a main-actor app target, a service is a main-actor type and the `Services` extension that
/// names it is main-actor isolated too, so it is created and read on the main actor only, and its
/// methods may use the app's main-actor code. Elsewhere a service is nonisolated and every reader
/// on every thread shares one value: make such a service `Sendable` (a struct of `Sendable`
/// stored properties, or a class that guards its state).
public protocol Service {
    /// Creates the service, the first time it is read.
    init()
}
