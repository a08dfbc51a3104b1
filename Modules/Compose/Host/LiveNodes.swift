import ComposeMachinery

/// Every bound node of every host, by component type: how `didAppear` finds the node of a
/// component value read outside any `observers` (a test, a handler).
///
/// Nodes are added when they join a tree and removed when they leave it (a host unmounts
/// when it is released), so it holds exactly the live nodes. Strong references: a weak one
/// would give every node a side table, and slow down every retain and release of it.
enum LiveNodes {
    private static let nodes = LockedState<[ObjectIdentifier: [ObjectIdentifier: ComponentNode]]>([:])

    static func add(_ node: ComponentNode) {
        nodes.withLock { $0[node.type, default: [:]][ObjectIdentifier(node)] = node }
    }

    static func remove(_ node: ComponentNode) {
        let removed: ComponentNode? = nodes.withLock { nodes in
            let entry = nodes[node.type]?.removeValue(forKey: ObjectIdentifier(node))
            if nodes[node.type]?.isEmpty == true { nodes[node.type] = nil }
            return entry
        }
        _ = removed
    }

    /// The live nodes of components of type `type`.
    static func nodes(of type: ObjectIdentifier) -> [ComponentNode] {
        nodes.withLock { $0[type].map { Array($0.values) } ?? [] }
    }

    /// The number of live nodes, all types together.
    static var count: Int {
        nodes.withLock { $0.values.reduce(0) { $0 + $1.count } }
    }
}
