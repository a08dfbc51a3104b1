#if canImport(SwiftUI)
import Compose
import SwiftUI

/// A root component that starts the app: put `@main` on it.
///
/// ```swift
/// @main
/// struct AppComponent: RouterComponent, ComposeApplication {
///     let auth = AuthComponent()
///     let home = HomeComponent()
///     let router = Router(start: \Self.auth)
///     var observers: Void { None }
/// }
///
/// extension AppComponent: View {
///     var body: some View { RouterView(router) }
/// }
/// ```
///
/// A root that is also a `StartupComponent` gets its hooks around the binding of the tree, as
/// any root does: `extension AppComponent: StartupComponent { func willBindRootComponent() {} }`.
///
/// The original Compose put `@main` on a `StartupComponent` directly. Swift needs a
/// `static func main()` and Compose needs to create the root, with `init()`, which
/// `StartupComponent` does not require (a root made in a test may take arguments); conforming to
/// this protocol gives both, and the app mounts the root in a window with
/// ``ComponentHostView``. It refines nothing, so that in a main-actor app target Swift infers
/// the root's conformances (to `Component` and to `View`) as it does for any component.
public protocol ComposeApplication {
    /// The root component, as the app starts.
    init()
}

extension ComposeApplication where Self: Component & View {
    /// Starts the app with this component as the root of its window.
    @MainActor
    public static func main() {
        ComposeApp<Self>.main()
    }
}

/// The SwiftUI app that shows a ``ComposeApplication``.
@MainActor
struct ComposeApp<Root: ComposeApplication & Component & View>: App {
    init() {}

    var body: some Scene {
        WindowGroup {
            ComponentHostView(Root())
        }
    }
}
#endif
