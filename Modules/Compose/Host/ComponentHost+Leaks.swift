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
    /// What should go when the tree unmounts and the test lets go of what it holds.
    package func leakCandidates() -> LeakCandidates {
        var candidates = LeakCandidates()
        candidates.nodes = nodes
        var kept: Set<ObjectIdentifier> = []
        var createdEntries: [AnyObject] = []
        for node in candidates.nodes {
            let objects = ComponentStorage.objects(in: node.value)
            let entries = objects.flatMap { ($0 as? any ReferenceHolder)?.referencedObjects ?? [] }
            if node.slotEntry != nil {
                candidates.created += objects
                createdEntries += entries
            } else {
                for entry in entries { kept.insert(ObjectIdentifier(entry)) }
            }
        }
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
