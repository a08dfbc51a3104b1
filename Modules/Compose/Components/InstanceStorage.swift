import ComposeEmitters
import ComposeMachinery
import ComposeRouting
import Foundation

/// The shared storage of an `InstanceComponent`: its created instances, by id, in creation order.
final class InstanceStorage<Wrapped: Component>: SlotStorage, ComponentSlot, @unchecked Sendable {  // State under its lock.
    struct State {
        var order: [UUID] = []
        var instances: [UUID: (component: Wrapped, generation: UInt64)] = [:]
        var generation: UInt64 = 0
        var reservations = SlotReservations()
    }

    let state = LockedState(State())
    let didCreate = ValueEmitter<UUID>(label: "\(Wrapped.self).didCreate")
    let didDestroy = ValueEmitter<UUID>(label: "\(Wrapped.self).didDestroy")

    var entries: [SlotEntry] {
        state.withLock { state in
            state.order.compactMap { id in
                state.instances[id].map { SlotEntry(id: .instance(id), component: $0.component, generation: $0.generation) }
            }
        }
    }

    func entry(_ id: SlotEntry.ID) -> SlotEntry? {
        guard case .instance(let uuid) = id else { return nil }
        return state.withLock { state in
            state.instances[uuid].map { SlotEntry(id: id, component: $0.component, generation: $0.generation) }
        }
    }

    var ids: [UUID] {
        changes.access()
        return state.withLock { $0.order }
    }

    func instance(for id: UUID) -> Wrapped? {
        changes.access()
        return state.withLock { $0.instances[id]?.component }
    }

    func create(_ component: Wrapped) -> UUID {
        let id = UUID()
        create(component, id: id)
        return id
    }

    @discardableResult
    func create(_ component: Wrapped, id: UUID) -> Bool {
        let made: (HostCore?, SlotEntry)? = state.withLock { state in
            guard state.instances[id] == nil else { return nil }
            state.generation += 1
            state.order.append(id)
            state.instances[id] = (component, state.generation)
            return (attachment?.host, SlotEntry(id: .instance(id), component: component, generation: state.generation))
        }
        guard let (host, entry) = made else { return false }
        if let host {
            host.slotChanged(self, .created(entry))
        } else {
            announce(created: true, entry)
        }
        return true
    }

    func destroy(_ id: UUID, fileID: String, line: UInt) -> Bool {
        let host = attachment?.host
        // Checked and removed in one step (see `DynamicStorage.destroy`).
        let removed: Bool? = state.withLock { state in
            guard state.instances[id] != nil else { return false }
            guard !state.reservations.holds(.instance(id)) else { return nil }
            Self.remove(id, from: &state)
            return true
        }
        guard let removed else {
            reportRoutedDestroy("InstanceComponent<\(Wrapped.self)>.destroy(\(id))", fileID: fileID, line: line)
            return false
        }
        guard removed else { return false }
        if let host {
            host.slotChanged(self, .removed(.instance(id)))
        } else {
            didDestroy.send(id)
        }
        return true
    }

    func remove(_ id: SlotEntry.ID) -> Bool {
        guard case .instance(let uuid) = id else { return false }
        return state.withLock { state in
            guard state.instances[uuid] != nil else { return false }
            Self.remove(uuid, from: &state)
            return true
        }
    }

    private static func remove(_ id: UUID, from state: inout State) {
        state.instances[id] = nil
        // The newest instances are the ones usually removed (popped): search from the end.
        if let index = state.order.lastIndex(of: id) { state.order.remove(at: index) }
    }

    func reserve(_ id: SlotEntry.ID) -> Bool {
        guard case .instance(let uuid) = id else { return false }
        return state.withLock { state in
            guard state.instances[uuid] != nil else { return false }
            state.reservations.add(id)
            return true
        }
    }

    func release(_ id: SlotEntry.ID) {
        state.withLock { $0.reservations.remove(id) }
    }

    func removeIfUnreserved(_ id: SlotEntry.ID) -> Bool {
        guard case .instance(let uuid) = id else { return false }
        return state.withLock { state in
            guard state.instances[uuid] != nil, !state.reservations.holds(id) else { return false }
            Self.remove(uuid, from: &state)
            return true
        }
    }

    func announce(created: Bool, _ entry: SlotEntry) {
        guard case .instance(let id) = entry.id else { return }
        EventLog.record(
            .lifecycle, source: "\(Wrapped.self)[\(id.uuidString.prefix(8))]", payload: created ? "didCreate" : "didDestroy")
        changes.changed()
        (created ? didCreate : didDestroy).send(id)
    }
}
