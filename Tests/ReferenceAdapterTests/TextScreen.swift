import Compose
import Foundation
import Observation
import Synchronization

/// A view layer written on Compose's public API alone (this target imports no module
/// `@testable`): it shows a component tree as lines of text, the way a SwiftUI layer shows it as
/// views. It is the specification the SwiftUI layer follows:
///
/// - The host runs with manual visibility: the screen decides what is on it, and tells the host
///   with `setVisible`, parents first when they appear and children first when they go.
/// - What is on screen is the root and, under each node on screen, the children the host's rule
///   shows (`shownChildren(of:)`): a router's top route (a `NavigationStack` on its
///   `navigationPath`), every child of any other component, created dynamic components as sheets.
/// - The screen lays itself out again when Observation says something it read changed, as
///   SwiftUI re-evaluates a body: ``needsLayout`` turns true, and ``layOut()`` applies it.
/// - A back gesture sets a shorter `navigationPath`; dismissing a sheet sets its
///   `DynamicComponent`'s `isPresented` to `false`.
final class TextScreen<Root: Component>: Sendable {
    let host: ComponentHost<Root>
    private let state = Mutex(ScreenState())

    /// Set by Observation's `onChange`, which captures only this (not the screen, whose `Root`
    /// may be a main-actor type that a `Sendable` closure cannot capture).
    private let changed = ChangeFlag()

    private struct ScreenState {
        var onScreen: [ComponentNode] = []
        var layouts = 0
    }

    init(_ root: Root) {
        host = ComponentHost(root, visibility: .manual)
        layOut()
    }

    /// Whether Observation reported a change since the last layout.
    var needsLayout: Bool { changed.isSet.load(ordering: .acquiring) }

    /// How many times the screen was laid out.
    var layouts: Int { state.withLock { $0.layouts } }

    /// The nodes on screen, parents first.
    var onScreen: [ComponentNode] { state.withLock { $0.onScreen } }

    /// Computes what is on screen, tells the host what appeared and disappeared, and watches
    /// what it read.
    func layOut() {
        let changed = self.changed
        changed.isSet.store(false, ordering: .releasing)
        let wanted = withObservationTracking({ planned() }, onChange: changed.set)
        let previous = state.withLock { state -> [ComponentNode] in
            defer {
                state.onScreen = wanted
                state.layouts += 1
            }
            return state.onScreen
        }
        let wantedIDs = Set(wanted.map(ObjectIdentifier.init))
        let previousIDs = Set(previous.map(ObjectIdentifier.init))
        for node in previous.reversed() where !wantedIDs.contains(ObjectIdentifier(node)) {
            host.setVisible(node, false)  // children first
        }
        for node in wanted where !previousIDs.contains(ObjectIdentifier(node)) {
            host.setVisible(node, true)  // parents first
        }
    }

    /// Lays out again if Observation asked for it, as a render loop does; returns whether it did.
    @discardableResult
    func layOutIfNeeded() -> Bool {
        guard needsLayout else { return false }
        layOut()
        return true
    }

    /// The screen as text: one line per node on screen, indented by depth, with how it is shown.
    func render() -> String {
        onScreen.map { node in
            var depth = 0
            var parent = node.parentNode
            while let current = parent {
                depth += 1
                parent = current.parentNode
            }
            return String(repeating: "  ", count: depth) + node.typeName + presentation(of: node)
        }.joined(separator: "\n")
    }

    /// A back gesture on `router`'s navigation stack: the path loses its last route.
    func back(on router: Router) {
        router.navigationPath = Array(router.navigationPath.dropLast())
    }

    private func planned() -> [ComponentNode] {
        guard let root = host.rootNode else { return [] }
        var result: [ComponentNode] = []
        func visit(_ node: ComponentNode) {
            result.append(node)
            for child in host.shownChildren(of: node) { visit(child) }
        }
        visit(root)
        return result
    }

    private func presentation(of node: ComponentNode) -> String {
        guard let parent = node.parentNode else { return "" }
        if let router = shownBy(node) {
            let path = router.navigationPath
            return path.isEmpty ? " (root of \(router.label))" : " (pushed, \(path.count) on \(router.label))"
        }
        switch node.origin {
        case .dynamic where parent.childVisibility == .all: return " (sheet)"
        case .instance: return " (instance)"
        default: return ""
        }
    }

    /// The router whose stack shows `node`, if a router does.
    private func shownBy(_ node: ComponentNode) -> Router? {
        var ancestor = node.parentNode
        while let current = ancestor {
            if let router = current.router,
                router.routes.contains(where: { host.node(for: $0, on: router) === node })
            {
                return router
            }
            ancestor = current.parentNode
        }
        return nil
    }
}

/// The flag Observation's `onChange` sets, outside the generic screen so the closure captures
/// no generic parameter.
private final class ChangeFlag: Sendable {
    let isSet = Atomic<Bool>(false)

    /// Sets the flag: Observation's `onChange`.
    var set: @Sendable () -> Void {
        { [self] in isSet.store(true, ordering: .releasing) }
    }
}
