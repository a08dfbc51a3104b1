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
        guard mayDestroy(.instance(id), "InstanceComponent<\(Wrapped.self)>.destroy(\(id))", fileID: fileID, line: line) else {
            return false
        }
        let host = attachment?.host
        guard remove(.instance(id)) else { return false }
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
            guard state.instances.removeValue(forKey: uuid) != nil else { return false }
            // The newest instances are the ones usually removed (popped): search from the end.
            if let index = state.order.lastIndex(of: uuid) { state.order.remove(at: index) }
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
