import ComposeEmitters
import ComposeMachinery

// What a view adapter reports when it cannot show a component as its author meant: one message
// per problem, worded once here for every adapter.

/// Why a view adapter cannot show a component as written; see
/// ``ComponentHost/report(_:showing:fileID:line:)``.
public enum ComponentViewProblem: Sendable, Hashable {
    /// The component has no view: its type does not conform to the view layer's view protocol
    /// (SwiftUI's `View`), so a `body` written without the conformance is never called.
    /// `protocolName` names that protocol, for the message.
    case notAView(protocolName: String)
    /// The component is a route of its own router (`Router(start: \Self.self)`, or `\Self.self`
    /// pushed) and does not say what that route shows: its view is its router's view, which cannot
    /// show itself. `requirement` names what the adapter needs (in ComposeSwiftUI, `RoutableView`'s
    /// `routableBody`).
    case ownRouteWithoutContent(requirement: String)
    /// Under manual visibility, the child in the stored property `field` did not appear while its
    /// parent was visible, though it has `didAppear` or `didDisappear` handlers: the mark of a child
    /// that the parent's view embeds directly, so that no view tells the host it appears. The host
    /// reports it as the parent disappears (the root: as the host unmounts).
    case childNotShown(field: String)

    /// What the diagnostic says about a component of type `typeName`.
    public func message(typeName: String) -> String {
        switch self {
        case .notAView(let protocolName):
            return "\(typeName) is shown but is not a \(protocolName), so it shows nothing: a body written without "
                + "the conformance is never called. Declare it: extension \(typeName): \(protocolName) { var body: "
                + "some \(protocolName) { ... } }"
        case .ownRouteWithoutContent(let requirement):
            return "\(typeName) is a route of its own router (Router(start: \\Self.self), or \\Self.self pushed), and "
                + "its view is that router's view, which cannot show itself: say what the route shows with "
                + "\(requirement), or start the router at a child"
        case .childNotShown(let field):
            return "\(typeName).\(field) did not appear while \(typeName) was visible, so it heard no didAppear or "
                + "didDisappear: if \(typeName)'s view shows it, show it through the view layer's component view "
                + "(ComposeSwiftUI: ComponentView(\(field))), which tells the host, not by embedding it directly"
        }
    }
}

extension ComponentHost {
    /// Reports `problem` as a `Diagnostic` (domain `"components"`), once per component type and
    /// problem for this host: a view that shows the node again, as views do on every update,
    /// reports nothing more. The adapter shows nothing (or a placeholder) for the node.
    ///
    /// - Returns: Whether this call reported it (`false` if it was reported before).
    @discardableResult
    public func report(
        _ problem: ComponentViewProblem, showing node: ComponentNode, fileID: String = #fileID, line: UInt = #line
    ) -> Bool {
        let key = ReportedViewProblem(type: node.type, problem: problem)
        guard core.reportedViewProblems.withLock({ $0.insert(key).inserted }) else { return false }
        Diagnostics.report(domain: "components", problem.message(typeName: node.typeName), fileID: fileID, line: line)
        return true
    }
}

/// A problem reported for a component type (see ``ComponentHost/report(_:showing:fileID:line:)``).
struct ReportedViewProblem: Hashable {
    let type: ObjectIdentifier
    let problem: ComponentViewProblem
}
