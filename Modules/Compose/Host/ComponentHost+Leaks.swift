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
                // And what it holds less directly: in an array, a dictionary, an existential.
                ReachableObjects.insert(from: node.value, into: &kept)
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

/// The objects a value holds in its stored properties, found with `Mirror`: directly, or inside
/// nested structs, enums, optionals, tuples, collections and existentials, but not inside other
/// objects (a `DynamicComponent` or a router holds the created components themselves). What a
/// component of the tree's structure holds this way is alive because of the tree, so it is no
/// leak when a created component holds it too.
enum ReachableObjects {
    /// How many values the walk looks at, at most: a component holding a large collection is
    /// walked in part.
    static let budget = 20_000

    static func insert(from value: Any, into found: inout Set<ObjectIdentifier>) {
        var remaining = budget
        for child in Mirror(reflecting: value).children {
            walk(child.value, found: &found, remaining: &remaining)
        }
    }

    private static func walk(_ value: Any, found: inout Set<ObjectIdentifier>, remaining: inout Int) {
        guard remaining > 0 else { return }
        remaining -= 1
        let mirror = Mirror(reflecting: value)
        if mirror.displayStyle == .class {
            found.insert(ObjectIdentifier(value as AnyObject))
            return
        }
        for child in mirror.children {
            walk(child.value, found: &found, remaining: &remaining)
        }
    }
}
