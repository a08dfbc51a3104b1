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
public protocol Service: Sendable {
    /// Creates the service, the first time it is read.
    init()
}
