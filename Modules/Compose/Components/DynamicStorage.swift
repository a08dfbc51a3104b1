import ComposeEmitters
import ComposeMachinery
import ComposeRouting
import Foundation

/// The shared storage of a `DynamicComponent`: its one created component, at most.
final class DynamicStorage<Wrapped: Component>: SlotStorage, ComponentSlot, @unchecked Sendable {  // State under its lock.
    struct State {
        var current: (component: Wrapped, generation: UInt64)?
        var generation: UInt64 = 0
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
        guard mayDestroy(.single, "DynamicComponent<\(Wrapped.self)>.destroy()", fileID: fileID, line: line) else {
            return false
        }
        let host = attachment?.host
        let removed: Bool = state.withLock { state in
            guard state.current != nil else { return false }
            state.current = nil
            return true
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

    func announce(created: Bool, _ entry: SlotEntry) {
        EventLog.record(.lifecycle, source: "\(Wrapped.self)", payload: created ? "didCreate" : "didDestroy")
        changes.changed()
        (created ? didCreate : didDestroy).send()
    }
}
