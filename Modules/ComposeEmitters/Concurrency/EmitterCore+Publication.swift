import ComposeMachinery
import DequeModule
import Synchronization

// Publication: the buffers of handlers a delivery may be reading, retired rather than written
// or freed (see "Publication" in `EmitterCore`).

extension EmitterCore {
    /// Takes the retired buffers, for the caller to release after unlocking. Only a thread
    /// ordered after every delivery may call it: the holder of the delivery role, or anyone who
    /// saw the role free with an acquiring load while holding the lock.
    @inlinable
    func takeRetired(_ state: inout State) -> ContiguousArray<ContiguousArray<Entry?>> {
        guard !state.retired.isEmpty else { return [] }
        var retired: ContiguousArray<ContiguousArray<Entry?>> = []
        swap(&retired, &state.retired)
        hasRetired.store(false, ordering: .relaxed)
        return retired
    }

    /// Makes `state.entries` safe to write in place. Called under the lock before every change
    /// of the array.
    ///
    /// - Returns: Retired buffers, for the caller to release after unlocking.
    @inlinable
    func prepareEntriesForWriting(_ state: inout State) -> ContiguousArray<ContiguousArray<Entry?>> {
        // First, so that no send without the lock starts reading what is about to change.
        let write = delivery.apply(DeliveryStateMachine.handlersWillChange)
        guard write == .writeACopy else {
            // Nobody delivers: every read of any buffer happened before the holder gave the role
            // up. Buffers a former holder has not freed yet (it is waiting for this lock) go now,
            // so that this thread, taking the role next, does not keep them through its delivery.
            state.published = false
            return takeRetired(&state)
        }
        guard state.published else { return [] }
        state.published = false
        // A delivery may be reading the buffer right now: leave it alone, and alive.
        var fresh = ContiguousArray<Entry?>()
        fresh.reserveCapacity(state.entries.count + 1)
        fresh.append(contentsOf: state.entries)
        swap(&fresh, &state.entries)
        state.retired.append(fresh)
        // The retired handlers must not outlive the delivery (they may hold what holds this
        // emitter). Either the holder, giving up the role, sees this flag and frees them, or we
        // see the role given up: both sides write, then read, sequentially consistent.
        hasRetired.store(true, ordering: .sequentiallyConsistent)
        if !delivery.state.isDelivering { return takeRetired(&state) }
        return []
    }

    /// Frees the retired buffers unless somebody took the delivery role since its holder gave it
    /// up (then that holder frees them). Called by a former holder, right after giving the role up.
    @inlinable
    func releaseRetiredIfIdle() {
        let retired = state.withLock { state in
            delivery.isDelivering ? [] : takeRetired(&state)
        }
        _ = retired  // released here, outside the lock
    }
}
