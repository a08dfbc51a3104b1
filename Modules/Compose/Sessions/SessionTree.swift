import ComposeEmitters
import ComposeMachinery
import ComposeRouting
import ComposeStore
import Foundation

/// A mounted tree as a session sees it: components by path, and their stores, routers, emitters
/// and dynamic components by property name. The recorder and ComposeTesting's replay both read a
/// tree through it, so the two name everything alike.
///
/// ## Paths
/// A component's path is its node's id (`NotesApp/list/detail`), except that an instance of an
/// `InstanceComponent` is numbered in the order the session first saw it (`Board/cards[#2]`),
/// since its `UUID` is new in every run. Instances are numbered by walking the whole tree,
/// parents first, at the moments a recording and its replay both look at it: each step's
/// checkpoint, and the replay finding an input's component. So an app that behaves the same
/// numbers its instances the same. Other looks (finding what an event happened to, a snapshot of
/// the recording so far) name an instance not numbered yet as the next walk that numbers would,
/// without numbering it.
package final class SessionTree: Sendable {
    let core: HostCore
    private let ordinals = LockedState<[UUID: Int]>([:])

    package init<Root: Component>(_ host: ComponentHost<Root>) {
        core = host.core
    }

    /// The tree's clock (`services.clock` where the host was made).
    package var clock: ComposeClock {
        core.clock
    }

    /// The root component's type name.
    package var rootName: String {
        core.tree.withLock { $0.root }?.typeName ?? "?"
    }

    /// Every node, parents first, with its path.
    ///
    /// - Parameter numbering: Whether the instances not seen before keep the numbers this walk
    ///   gives them (at the moments the recording and its replay share; see ``SessionTree``).
    package func paths(numbering: Bool = true) -> [(node: ComponentNode, path: String)] {
        let nodes = core.tree.withLock { $0.root }.map(core.subtree(of:)) ?? []
        var unnumbered = numbering ? [:] : ordinals.withLock { $0 }
        var paths: [ObjectIdentifier: String] = [:]
        var result: [(node: ComponentNode, path: String)] = []
        result.reserveCapacity(nodes.count)
        for node in nodes {
            var segment = node.name
            if let entry = node.slotEntry?.entry, case .instance(let id) = entry.id {
                segment += "[#\(numbering ? ordinal(of: id) : Self.ordinal(of: id, in: &unnumbered))]"
            }
            let path = node.parentNode.flatMap { paths[ObjectIdentifier($0)] }.map { $0 + "/" + segment } ?? segment
            paths[ObjectIdentifier(node)] = path
            result.append((node, path))
        }
        return result
    }

    private func ordinal(of id: UUID) -> Int {
        ordinals.withLock { Self.ordinal(of: id, in: &$0) }
    }

    private static func ordinal(of id: UUID, in ordinals: inout [UUID: Int]) -> Int {
        if let known = ordinals[id] { return known }
        ordinals[id] = ordinals.count + 1
        return ordinals.count
    }

    /// The stored properties of `node` that are emitters, stores or routers, by name.
    package func sources(of node: ComponentNode) -> [(name: String, value: Any)] {
        node.layout.namedSources.map { ($0.name, ComponentStorage.field($0.type, at: $0.offset, of: node.component)) }
    }

    /// The node at `path`, if the tree has one.
    package func node(at path: String) -> ComponentNode? {
        paths().first { $0.path == path }?.node
    }

    /// The property `name` of the component at `path`: an emitter, a store, a router, or a
    /// dynamic component's presentation.
    package func property(_ name: String, at path: String) -> Any? {
        guard let node = node(at: path) else { return nil }
        if let source = sources(of: node).first(where: { $0.name == name }) { return source.value }
        return node.layout.fields.first { $0.name == name && $0.kind == .dynamic }.map { $0.slot(of: node.component) }
    }

    // MARK: Checkpoints

    /// The whole state of the tree's stores and routers now.
    ///
    /// - Parameter numbering: Whether new instances keep their numbers: `false` for a look that
    ///   is not a step's checkpoint (a snapshot of the recording so far).
    package func checkpoint(numbering: Bool = true) -> SessionRecording.Checkpoint {
        var checkpoint = SessionRecording.Checkpoint()
        let paths = self.paths(numbering: numbering)
        let byNode = Self.table(paths)
        for (node, path) in paths {
            for (name, value) in sources(of: node) {
                if let store = value as? any SessionStore {
                    checkpoint.stores["\(path).\(name)"] = store.sessionState
                } else if let router = value as? Router {
                    checkpoint.routers["\(path).\(name)"] = stack(of: router.routes, on: router, paths: byNode)
                }
            }
        }
        return checkpoint
    }

    /// `routes`, as the paths of the components they show on `router` (numbering no instance).
    package func stack(of routes: [Route], on router: Router) -> [String] {
        stack(of: routes, on: router, paths: Self.table(paths(numbering: false)))
    }

    private func stack(of routes: [Route], on router: Router, paths: [ObjectIdentifier: String]) -> [String] {
        routes.map { route in
            core.resolveNode(route, on: router).flatMap { paths[ObjectIdentifier($0)] } ?? route.description
        }
    }

    private static func table(_ paths: [(node: ComponentNode, path: String)]) -> [ObjectIdentifier: String] {
        Dictionary(paths.map { (ObjectIdentifier($0.node), $0.path) }, uniquingKeysWith: { first, _ in first })
    }

    // MARK: Finding what an event happened to

    /// The first stored property of a component of the tree that `match` takes, with the
    /// component's path and the property's name.
    private func firstSource<Found>(_ match: (Any) -> Found?) -> (path: String, name: String, found: Found)? {
        for (node, path) in paths(numbering: false) {
            for (name, value) in sources(of: node) {
                if let found = match(value) { return (path, name, found) }
            }
        }
        return nil
    }

    /// The component path and property name of the emitter whose core is `subject`.
    func emitter(_ subject: ObjectIdentifier) -> (path: String, name: String, found: any SessionEmitter)? {
        firstSource { ($0 as? any SessionEmitter).flatMap { $0.logSubject == subject ? $0 : nil } }
    }

    /// The component path and property name of the store whose storage is `subject`.
    func store(_ subject: ObjectIdentifier) -> (path: String, name: String, found: any SessionStore)? {
        firstSource { ($0 as? any SessionStore).flatMap { $0.logSubject == subject ? $0 : nil } }
    }

    /// The component path and property name of `router`.
    func router(_ subject: ObjectIdentifier) -> (path: String, name: String, found: Router)? {
        firstSource { ($0 as? Router).flatMap { ObjectIdentifier($0) == subject ? $0 : nil } }
    }

    /// The component path and property name of the dynamic component whose storage is `subject`.
    func dynamic(_ subject: ObjectIdentifier) -> (path: String, name: String)? {
        for (node, path) in paths(numbering: false) {
            for field in node.layout.fields where field.kind == .dynamic {
                if ObjectIdentifier(field.slot(of: node.component)) == subject { return (path, field.name) }
            }
        }
        return nil
    }

    /// The path of the node `subject`.
    func node(_ subject: ObjectIdentifier) -> String? {
        paths(numbering: false).first { ObjectIdentifier($0.node) == subject }?.path
    }
}
