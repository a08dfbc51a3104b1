import ComposeMachinery

/// The live entities of one value type, by id.
///
/// Does not keep its entries alive: an entry removes its slot when it goes away, so the table
/// holds only live entities. One registry per value type and world (see `ComposeWorld`), made on first
/// use and kept for the life of the world (their number is bounded by the number of types): a
/// sandboxed test's `@Ref`s never meet another test's entities, even with the same ids.
@usableFromInline
final class RefRegistry<Value: RefValue>: Sendable {
    /// The table holds each entry without keeping it alive, and without a `weak` reference: that
    /// would give the entry a side table, and make every retain and release of it (every copy of
    /// a state holding a `@Ref`) slower. An entry's deinit removes its slot, under `slots`' lock,
    /// which frees its memory.
    typealias Slot = LightWeakReference<RefEntry<Value>>

    let slots = LockedState<[Value.ID: Slot]>([:])

    /// How a new value joins an entity that is already alive.
    @usableFromInline
    enum Joining {
        /// The live value wins: `value` is only the entity's initial value (a declaration's
        /// default).
        case adopt
        /// `value` is written to the entity (an assignment, a decoded value).
        case write
    }

    /// The entity for `value`'s id: the live one, or a new one holding `value`.
    @usableFromInline
    static func entry(for value: Value, joining: Joining) -> RefEntry<Value> {
        let registry = shared
        let (entry, created) = registry.slots.withLock { slots -> (RefEntry<Value>, Bool) in
            if let live = slots[value.id]?.retainIfAlive() { return (live, false) }
            let entry = RefEntry(value: value, registry: registry)
            slots[value.id] = Slot(entry)
            return (entry, true)
        }
        // Outside the registry's lock: writing compares values (user code) and calls listeners.
        if !created && joining == .write { entry.write(value) }
        return entry
    }

    /// The live entity with `id`, if any.
    static func liveEntry(for id: Value.ID) -> RefEntry<Value>? {
        shared.slots.withLock { $0[id]?.retainIfAlive() }
    }

    /// Removes the slot for `id` if it still belongs to `entry`, which is going away (a newer
    /// entry for the same id may have taken the slot since `entry` stopped being retainable).
    func remove(_ id: Value.ID, ifStill entry: RefEntry<Value>) {
        slots.withLock { slots in
            guard let slot = slots[id], slot.refers(to: entry) else { return }
            slots.removeValue(forKey: id)
        }
    }

    /// The number of live entities of this type.
    var count: Int {
        slots.withLock { $0.count }
    }

    /// The registry of `Value` in the current world.
    @usableFromInline
    static var shared: RefRegistry<Value> {
        ComposeWorld.current.value(for: ObjectIdentifier(RefRegistry<Value>.self)) { RefRegistry<Value>() }
    }
}

/// What the soak and the lifetime tests read about the registries.
package enum RefDiagnostics {
    /// The number of live entities of `Value`: ids that at least one `@Ref` or `Referred` holds.
    package static func liveEntityCount<Value: RefValue>(of _: Value.Type) -> Int {
        RefRegistry<Value>.shared.count
    }
}
