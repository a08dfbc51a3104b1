#if canImport(SwiftUI)
import Compose
import SwiftUI

/// What the views of a component tree ask their host, whatever its root type.
@MainActor
protocol ComponentHosting: AnyObject, Sendable {
    func node<C: Component>(of component: C) -> ComponentNode?
    func node(for route: Route, on router: Router) -> ComponentNode?
    func setVisible(_ node: ComponentNode, _ visible: Bool)
    @discardableResult
    func report(_ problem: ComponentViewProblem, showing node: ComponentNode, fileID: String, line: UInt) -> Bool
}

extension ComponentHost: ComponentHosting {}

/// The host of the tree a view belongs to.
struct ComponentHostKey: EnvironmentKey {
    static let defaultValue: (any ComponentHosting)? = nil
}

extension EnvironmentValues {
    /// The host of the component tree the view belongs to; set by ``ComponentHostView``.
    var componentHost: (any ComponentHosting)? {
        get { self[ComponentHostKey.self] }
        set { self[ComponentHostKey.self] = newValue }
    }
}
#endif
