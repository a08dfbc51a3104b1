import ComposeMachinery
import DequeModule
import Synchronization

// Delivery: calling the handlers, and the backlog of values and registrations that waited for
// the holder of the role.

extension EmitterCore {
    /// Calls every live handler of `entries` (a published buffer, see ``publishEntries(_:)``)
    /// with `value`. No lock is held.
    @inlinable
    func deliver(_ value: Value, to entries: UnsafeBufferPointer<Entry?>, epoch: UInt) {
        guard let base = entries.baseAddress else { return }
        // An `Entry?` is one reference, and `nil` a null pointer (an optional class reference):
        // each entry is read as a pointer and used as a guaranteed reference, with no retain or
        // release, since the published buffer keeps every one alive for the whole loop.
        let raw = UnsafeRawPointer(base)
        for index in entries.indices {
            guard
                let pointer = raw.load(
                    fromByteOffset: index &* MemoryLayout<Entry?>.stride, as: UnsafeRawPointer?.self)
            else { continue }
            Unmanaged<Entry>.fromOpaque(pointer)._withUnsafeGuaranteedRef { entry in
                if cancellations.load(ordering: .acquiring) != epoch, entry.token.isCancelled { return }
                entry.handler(value)
            }
        }
    }

    /// The next queued delivery, taken from the backlog.
    @usableFromInline
    enum Next {
        case broadcast(Value, UnsafeBufferPointer<Entry?>, epoch: UInt)
        case replay(Value, @Sendable (Value) -> Void)
    }

    /// Called by the holder of the delivery role when it has nothing in hand: delivers the
    /// backlog, then gives the role up.
    ///
    /// The common case, nothing sent meanwhile, is inlined into the caller: one
    /// compare-and-exchange from "delivering, nothing waits" to idle, without loading the word
    /// first; anything else goes through ``deliverBacklogAndFinish()``.
    @inlinable @inline(__always)
    func finishDelivering() {
        guard delivery.giveUpIfNothingWaits() else { return deliverBacklogAndFinish() }
        if hasRetired.load(ordering: .sequentiallyConsistent) { releaseRetiredIfIdle() }
    }

    /// ``finishDelivering()`` when values may wait: delivers them, then gives the role up.
    /// Specialized for the caller's type, but kept out of line: it is the uncommon path.
    @inlinable @inline(never)
    func deliverBacklogAndFinish() {
        while true {
            guard delivery.apply(DeliveryStateMachine.finish) == .takeNext else {
                if hasRetired.load(ordering: .sequentiallyConsistent) { releaseRetiredIfIdle() }
                return
            }
            // `next` (and the snapshot in it) is done with at the end of each turn, before the
            // role is given up at the top of the next (see "Publication").
            var replaced: Value?
            let (next, retired): (Next?, ContiguousArray<ContiguousArray<Entry?>>) = state.withLock { state in
                (nextDelivery(&state, replacing: &replaced), takeRetired(&state))
            }
            _ = consume retired  // released here, outside the lock, before anything is delivered
            replaced = nil  // released outside the lock (a deinit is user code)
            switch next {
            case .broadcast(let value, let entries, let epoch)?:
                deliver(value, to: entries, epoch: epoch)
            case .replay(let value, let handler)?:
                handler(value)
            case nil:
                continue
            }
        }
    }

    /// Takes the next queued delivery. Called under the lock by the holder of the delivery role,
    /// which was told that values wait.
    ///
    /// - Parameter replaced: Receives the value this delivery replaces as the last delivered,
    ///   for the caller to release after unlocking.
    /// - Returns: `nil` if every waiting registration was cancelled since, or wanted no replay.
    @inlinable
    func nextDelivery(_ state: inout State, replacing replaced: inout Value?) -> Next? {
        // `tookNext` marks the snapshot fresh: it is published in the same hold.
        let entries = publishEntries(&state)
        // `isEmpty` first: popping is a mutation, which checks the deque's uniqueness.
        while !state.replays.isEmpty {
            let registration = state.replays.removeFirst()
            delivery.apply(DeliveryStateMachine.tookNext)
            // The token may have been cancelled since it was queued.
            guard !registration.token.isCancelled, let entry = state.entries[registration.token.index] else { continue }
            let current = lastDelivered(in: &state)
            registration.whileRegistering?(current)
            guard registration.replaysCurrent, let current else { continue }
            return .replay(current, entry.handler)
        }
        guard !state.queue.isEmpty else { return nil }
        let value = state.queue.removeFirst()
        delivery.apply(DeliveryStateMachine.tookNext)
        if remembersValues { replaced = recordDelivered(value, in: &state) }
        return .broadcast(value, entries, epoch: cancellations.load(ordering: .relaxed))
    }

    /// Queues `value` without delivering it.
    ///
    /// For a caller that must deliver values in the order its own lock assigns them (a store
    /// notifies in commit order): call this under that lock, then ``deliverBacklog()`` after
    /// releasing it. Nesting is safe: this lock is never held while taking another.
    ///
    /// - Precondition: The core remembers no value (``ValueEmitter/lastValue`` is the last value
    ///   queued, or else the last delivered: a value queued for later is not sent).
    @inlinable
    package func enqueue(_ value: Value) {
        assert(!remembersValues, "enqueue(_:) is for cores that remember no value")
        state.withLock { state in
            state.queue.append(value)
            applyHoldingLock(DeliveryStateMachine.enqueuedForLater)
        }
    }

    /// Delivers what ``enqueue(_:)`` queued, unless another thread is delivering (then it will).
    @inlinable
    package func deliverBacklog() {
        if delivery.apply(DeliveryStateMachine.claim) == .drain { finishDelivering() }
    }

    /// Whether any handler is registered; a relaxed read, without the lock.
    @inlinable
    package var hasSubscribers: Bool {
        live.load(ordering: .relaxed) > 0
    }
}
