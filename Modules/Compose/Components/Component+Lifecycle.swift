import ComposeEmitters

extension Component {
    /// Sent each time this component becomes visible.
    ///
    /// ```swift
    /// var observers: Void {
    ///     didAppear += { print("Component appeared.") }
    ///     logIn.didAppear += { print("The log-in screen appeared.") }  // a child's
    /// }
    /// ```
    ///
    /// The emitter belongs to the component's node in a mounted tree. Read in `observers` (the
    /// component's own, or an ancestor's for a child), it is found in that part of the tree;
    /// read elsewhere, among every mounted tree. Two components of the same type are told
    /// apart by the objects they hold (emitters, stores, routers); if the value read is not
    /// mounted, or cannot be told apart from another, a `Diagnostic` says so and the emitter
    /// returned never sends.
    public var didAppear: SignalEmitter {
        ComponentLookup.node(for: self, reading: "didAppear")?.didAppear
            ?? SignalEmitter(label: "\(Self.self).didAppear (not mounted)")
    }

    /// Sent each time this component stops being visible; see ``didAppear``.
    public var didDisappear: SignalEmitter {
        ComponentLookup.node(for: self, reading: "didDisappear")?.didDisappear
            ?? SignalEmitter(label: "\(Self.self).didDisappear (not mounted)")
    }

    /// The app's services: `services.user`. See ``Services``.
    public var services: Services {
        Services.current
    }
}

/// Finds the node of a component value.
enum ComponentLookup {
    static func node<C: Component>(for component: C, reading property: String) -> ComponentNode? {
        let layout = ComponentLayout.of(C.self)
        let words = ComponentStorage.words(at: layout.referenceWords, of: component)
        let type = ObjectIdentifier(C.self)
        let context = ComponentContext.current
        let candidates: [ComponentNode]
        if let context, let host = context.host {
            candidates = host.subtree(of: context).filter { $0.type == type }
        } else {
            candidates = LiveNodes.nodes(of: type)
        }
        let matches = candidates.filter { $0.identityWords == words }
        if matches.count == 1 { return matches[0] }
        if let context, matches.contains(where: { $0 === context }) { return context }
        let problem =
            matches.isEmpty
            ? "is not part of a mounted component tree"
            : "cannot be told apart from \(matches.count - 1) other mounted \(C.self) (give it an emitter or a store, or read it in its own observers)"
        Diagnostics.report(
            domain: "components", "\(C.self).\(property): this \(C.self) \(problem); the emitter returned never sends")
        return nil
    }
}
