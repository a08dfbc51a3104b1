import ComposeStore

/// What should go when a tree unmounts, for leak checks (ComposeTesting).
package struct LeakCandidates {
    /// Every node of the tree.
    package var nodes: [ComponentNode] = []
    /// The objects that components created at run time hold (emitters, stores, routers).
    package var created: [AnyObject] = []
    /// The shared entries (refs) that only created components' stores refer to.
    package var entries: [AnyObject] = []
}

extension ComponentHost {
    /// What should go when the tree unmounts and the test lets go of what it holds: what created
    /// components hold, but not what a component of the tree's own structure holds too (a parent
    /// that hands its store to a sheet keeps it, and the test keeps the parent).
    package func leakCandidates() -> LeakCandidates {
        var candidates = LeakCandidates()
        candidates.nodes = nodes
        var kept: Set<ObjectIdentifier> = []
        var createdObjects: [AnyObject] = []
        var createdEntries: [AnyObject] = []
        for node in candidates.nodes {
            let objects = ComponentStorage.objects(in: node.value)
            let entries = objects.flatMap { ($0 as? any ReferenceHolder)?.referencedObjects ?? [] }
            if node.slotEntry != nil {
                createdObjects += objects
                createdEntries += entries
            } else {
                for object in objects + entries { kept.insert(ObjectIdentifier(object)) }
            }
        }
        candidates.created = createdObjects.filter { !kept.contains(ObjectIdentifier($0)) }
        candidates.entries = createdEntries.filter { !kept.contains(ObjectIdentifier($0)) }
        return candidates
    }
}

extension ComponentStorage {
    /// The objects a component holds in its class-reference words.
    static func objects(in component: any Component) -> [AnyObject] {
        let layout = ComponentLayout.of(type(of: component))
        return words(at: layout.referenceWords, of: component).compactMap { word in
            UnsafeRawPointer(bitPattern: word).map { Unmanaged<AnyObject>.fromOpaque($0).takeUnretainedValue() }
        }
    }
}
