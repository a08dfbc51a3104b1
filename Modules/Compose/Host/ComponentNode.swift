import ComposeEmitters
import ComposeMachinery
import ComposeRouting
import Foundation

/// One component in a mounted tree: its place, its lifecycle emitters and whether it is
/// visible. Made by the ``ComponentHost``; tests and view adapters read it.
///
/// A node's id is its path from the root, by property name (`AppComponent/auth/logIn`, with
/// `[<uuid>]` for an instance): stable for the component's life and cheap to read.
public final class ComponentNode: @unchecked Sendable, CustomStringConvertible {  // `guarded` under the host's lock.
    let component: any Component
    let type: ObjectIdentifier
    let layout: ComponentLayout
    /// The router of a router component (`RouterComponent.router`); `nil` for other components.
    public let router: Router?
    /// The words identifying this component value (see ``ComponentLayout/referenceWords``).
    let identityWords: [UInt]
    /// For a created component: its slot's field in the parent, and its entry.
    let slotEntry: (field: Int, entry: SlotEntry)?
    /// The last segment of the id: the property name (an instance's id is added when the id is
    /// first read).
    let name: String
    let scope: ObservationScope
    weak var host: HostCore?
    /// What the host's lock guards; reached only through `HostCore.Tree`'s subscript, inside
    /// the lock (or, once the host is gone, through ``withState(_:)``).
    fileprivate var guarded: NodeState

    init(
        component: any Component,
        name: String,
        parent: ComponentNode?,
        slotEntry: (field: Int, entry: SlotEntry)?,
        host: HostCore
    ) {
        let type = Swift.type(of: component)
        self.component = component
        self.name = name
        self.type = ObjectIdentifier(type)
        self.layout = ComponentLayout.of(type)
        self.router = layout.isRouter ? (component as? any RouterComponent)?.router : nil
        self.identityWords = ComponentStorage.words(at: layout.referenceWords, of: component)
        self.slotEntry = slotEntry
        self.host = host
        self.scope = parent?.scope.makeChild() ?? ObservationScope(label: name, handlerContext: host.handlerContext)
        self.guarded = NodeState(parent: parent)
    }

    /// Runs `body` on the node's guarded state: under its host's lock, or directly once the host
    /// is gone (nothing else reaches it then).
    func withState<Result>(_ body: (inout NodeState) -> Result) -> Result {
        guard let host else { return body(&guarded) }
        return host.tree.withLock { tree in body(&tree[self]) }
    }

    /// The path from the root, by property name: `AppComponent/auth/logIn`, with `[<uuid>]`
    /// (its first 8 characters) for an instance.
    public var id: String {
        if let cached = withState({ $0.cachedID }) { return cached }
        var segment = name
        if let entry = slotEntry?.entry, case .instance(let uuid) = entry.id {
            segment += "[" + uuid.uuidString.prefix(8) + "]"
        }
        // The parent's id takes the lock too: compute outside it.
        let id = withState({ $0.parent }).map { $0.id + "/" + segment } ?? segment
        withState { $0.cachedID = id }
        return id
    }

    /// The component's type name.
    public var typeName: String {
        layout.typeName
    }

    /// Sent each time the component becomes visible.
    public var didAppear: SignalEmitter {
        lifecycleEmitters().didAppear
    }

    /// Sent each time the component stops being visible.
    public var didDisappear: SignalEmitter {
        lifecycleEmitters().didDisappear
    }

    private func lifecycleEmitters() -> (didAppear: SignalEmitter, didDisappear: SignalEmitter) {
        withState { state in
            if let lifecycle = state.lifecycle { return lifecycle }
            let made = (SignalEmitter(label: name + ".didAppear"), SignalEmitter(label: name + ".didDisappear"))
            state.lifecycle = made
            return made
        }
    }

    /// Sends `didAppear` or `didDisappear`, if anyone made them.
    func sendLifecycle(appeared: Bool) {
        guard let lifecycle = withState({ $0.lifecycle }) else { return }
        (appeared ? lifecycle.didAppear : lifecycle.didDisappear).send()
    }

    /// Whether `didAppear` or `didDisappear` has a handler.
    var hasLifecycleHandlers: Bool {
        guard let lifecycle = withState({ $0.lifecycle }) else { return false }
        return lifecycle.didAppear.subscriberCount + lifecycle.didDisappear.subscriberCount > 0
    }

    /// Detaches the node from its parent when it leaves the tree.
    func detach() {
        _ = id  // Keep the path it had in its tree.
        withState { $0.parent = nil }
    }

    /// Whether the component is visible.
    ///
    /// Observable: a SwiftUI view or `withObservationTracking` that reads it is told when it
    /// changes.
    public var isVisible: Bool {
        visibility.access()
        return host?.tree.withLock { $0[self].isVisible } ?? false
    }

    /// Observation of ``isVisible``, changed by the host after it shows or hides the node.
    let visibility = ObservationSignal()
    /// Observation of the node's children, changed by the host after a created component (a
    /// dynamic component, an instance) joins or leaves them.
    let childrenSignal = ObservationSignal()

    /// The component, as mounted.
    public var value: any Component {
        component
    }

    /// The parent node, or `nil` for the root.
    public var parentNode: ComponentNode? {
        withState { $0.parent }
    }

    /// The child nodes: static children in declaration order, then created ones in creation
    /// order, field by field.
    public var children: [ComponentNode] {
        host?.tree.withLock { $0[self].orderedChildren(of: layout) } ?? []
    }

    /// Whether this node is `ancestor` or one of its descendants.
    func isWithin(_ ancestor: ComponentNode) -> Bool {
        var node: ComponentNode? = self
        while let current = node {
            if current === ancestor { return true }
            node = current.parentNode
        }
        return false
    }

    /// The subscriptions the component's observers set up that are still active.
    public var activeObserverCount: Int {
        scope.activeSubscriptionCount
    }

    /// `ComponentNode(AppComponent/auth/logIn, visible)`.
    public var description: String {
        "ComponentNode(\(id)\(isVisible ? ", visible" : ""))"
    }
}

/// What the host's lock guards of one node.
struct NodeState {
    /// Strong, and cleared when the node leaves its tree: a weak reference would give every
    /// node a side table, and make every retain and release of it slower.
    var parent: ComponentNode?
    /// Child nodes of component fields, by field index.
    var staticChildren: [Int: ComponentNode] = [:]
    /// Child nodes of dynamic and instance fields, by field index.
    var slotChildren: [Int: SlotChildren] = [:]
    var isVisible = false
    /// When the node last disappeared, in the host's count of visibility changes (0: never).
    var disappearedAt: UInt64 = 0
    /// When the node last appeared, in the same count.
    var appearedAt: UInt64 = 0
    /// The children this node showed when it appeared, hidden when it disappears.
    var shownChildren: [ComponentNode] = []
    var isBound = false
    /// The emitters and stores the component owns (the ownership check).
    var ownedIdentities: [ObjectIdentifier] = []
    /// Made on first use: most nodes are never observed.
    var lifecycle: (didAppear: SignalEmitter, didDisappear: SignalEmitter)?
    var cachedID: String?

    init(parent: ComponentNode?) {
        self.parent = parent
    }

    /// The child nodes: static children in declaration order, then created ones in creation
    /// order, field by field.
    func orderedChildren(of layout: ComponentLayout) -> [ComponentNode] {
        layout.fields.indices.flatMap { index in
            staticChildren[index].map { [$0] } ?? slotChildren[index]?.order ?? []
        }
    }
}

extension HostCore.Tree {
    /// The guarded state of `node`: reachable only with the tree, that is, under the host's lock.
    subscript(node: ComponentNode) -> NodeState {
        get { node.guarded }
        _modify { yield &node.guarded }
    }
}

/// The nodes of one dynamic or instance field: in creation order, and by entry id.
struct SlotChildren {
    private(set) var order: [ComponentNode] = []
    private var byID: [SlotEntry.ID: ComponentNode] = [:]

    mutating func append(_ node: ComponentNode) {
        guard let id = node.slotEntry?.entry.id else { return }
        order.append(node)
        byID[id] = node
    }

    /// - Complexity: O(1) by id; the removal from `order` searches from the newest, which is the
    ///   one usually removed (popped).
    mutating func remove(_ node: ComponentNode) {
        guard let id = node.slotEntry?.entry.id, byID[id] === node else { return }
        byID[id] = nil
        if let index = order.lastIndex(where: { $0 === node }) { order.remove(at: index) }
    }

    func node(_ id: SlotEntry.ID) -> ComponentNode? {
        byID[id]
    }
}
