import ComposeEmitters
import ComposeMachinery
import ComposeRouting
import Foundation

/// The shared storage of a `DynamicComponent`: its one created component, at most.
final class DynamicStorage<Wrapped: Component>: SlotStorage, ComponentSlot, @unchecked Sendable {  // State under its lock.
    struct State {
        var current: (component: Wrapped, generation: UInt64)?
        var generation: UInt64 = 0
        var reservations = SlotReservations()
    }

    let state = LockedState(State())
    let didCreate = SignalEmitter(label: "\(Wrapped.self).didCreate")
    let didDestroy = SignalEmitter(label: "\(Wrapped.self).didDestroy")

    var current: (component: Wrapped, generation: UInt64)? {
        changes.access()
        return state.withLock { $0.current }
    }

    var entries: [SlotEntry] {
        entry(.single).map { [$0] } ?? []
    }

    func entry(_ id: SlotEntry.ID) -> SlotEntry? {
        guard case .single = id, let current else { return nil }
        return SlotEntry(id: .single, component: current.component, generation: current.generation)
    }

    func create(_ component: Wrapped) {
        let (replaced, host, created): (Wrapped?, HostCore?, SlotEntry) = state.withLock { state in
            let replaced = state.current?.component
            state.generation += 1
            state.current = (component, state.generation)
            let entry = SlotEntry(id: .single, component: component, generation: state.generation)
            return (replaced, attachment?.host, entry)
        }
        if let host {
            host.slotChanged(self, .created(created))
        } else {
            if replaced != nil { didDestroy.send() }
            announce(created: true, created)
        }
    }

    func destroy(fileID: String, line: UInt) -> Bool {
        EventLog.record(.dismissal, source: "\(Wrapped.self)", payload: "destroy", subject: ObjectIdentifier(self))
        let host = attachment?.host
        // Checked and removed in one step: a route pushed meanwhile either holds the component
        // first (and this is refused), or finds it gone (and the push is refused).
        let removed: Bool? = state.withLock { state in
            guard state.current != nil else { return false }
            guard !state.reservations.holds(.single) else { return nil }
            state.current = nil
            return true
        }
        guard let removed else {
            reportRoutedDestroy("DynamicComponent<\(Wrapped.self)>.destroy()", fileID: fileID, line: line)
            return false
        }
        guard removed else { return false }
        if let host {
            host.slotChanged(self, .removed(.single))
        } else {
            didDestroy.send()
        }
        return true
    }

    func remove(_ id: SlotEntry.ID) -> Bool {
        state.withLock { state in
            guard state.current != nil else { return false }
            state.current = nil
            return true
        }
    }

    func reserve(_ id: SlotEntry.ID) -> Bool {
        state.withLock { state in
            guard state.current != nil else { return false }
            state.reservations.add(id)
            return true
        }
    }

    func release(_ id: SlotEntry.ID) {
        state.withLock { $0.reservations.remove(id) }
    }

    func removeIfUnreserved(_ id: SlotEntry.ID) -> Bool {
        state.withLock { state in
            guard state.current != nil, !state.reservations.holds(id) else { return false }
            state.current = nil
            return true
        }
    }

    func announce(created: Bool, _ entry: SlotEntry) {
        EventLog.record(.lifecycle, source: "\(Wrapped.self)", payload: created ? "didCreate" : "didDestroy")
        changes.changed()
        (created ? didCreate : didDestroy).send()
    }
}
