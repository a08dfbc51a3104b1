import ComposeMachinery
import DequeModule
import Synchronization

// Sending: without the lock from idle, or under it; the snapshot a delivery reads (see
// "Sending without the lock" and "Publication" in `EmitterCore`).

extension EmitterCore {
    /// Delivers `value` to every handler, or queues it if a delivery is in progress.
    ///
    /// - Complexity: O(*n*) handler calls; no allocation unless the value has to be queued.
    @inlinable
    package func send(_ value: Value) {
        if logSwitch.isOn, isLogged { return sendLogged(value) }
        sendUnlogged(value)
    }

    /// ``send(_:)`` while the event log is on: the send is recorded, then delivered as a
    /// consequence of itself (see `EventLog.asConsequence`), so what its handlers do is not an
    /// input of its own.
    @usableFromInline @inline(never)
    func sendLogged(_ value: Value) {
        EventLog.record(
            .send, source: logSource, payload: isRedacted ? EventLog.RedactedValue() : value as any Sendable,
            subject: ObjectIdentifier(self))
        EventLog.asConsequence { sendUnlogged(value) }
    }

    /// ``send(_:)`` after the log: the delivery.
    @inlinable @inline(__always)
    func sendUnlogged(_ value: Value) {
        if sendsWithoutLock {
            // Loaded before the role is taken (see "Sending without the lock").
            let epoch = cancellations.load(ordering: .relaxed)
            if delivery.sendWithoutLock() {
                if remembersValues { storeDelivered(value) }
                deliver(value, to: snapshot, epoch: epoch)
                return finishDelivering()
            }
        }
        sendHoldingLock(value)
    }

    /// ``send(_:)`` under the lock: when the handlers changed since the last delivery, somebody
    /// delivers or values wait, or the value does not fit a word.
    @inlinable @inline(never)
    func sendHoldingLock(_ value: Value) {
        // The snapshot is read in this scope only, before `finishDelivering` gives the role up
        // (see "Publication"). The value it replaces as the last delivered is released after the
        // lock: a release can run a deinit, which is user code and may read this emitter.
        var replaced: Value?
        // Set when the value was queued behind values waiting for nobody (queued for later) and
        // this thread took the role to deliver them all.
        var drains = false
        do {
            // The snapshot, its epoch and the retired buffers when this thread takes the role
            // and delivers at once; `nil` when it queued the value. (A tuple, not an enum: an
            // enum's payload is copied out with a retain more per send.)
            let start: (UnsafeBufferPointer<Entry?>, UInt, ContiguousArray<ContiguousArray<Entry?>>?)? = state.withLock { state in
                switch applyHoldingLock(DeliveryStateMachine.send) {
                case .deliverNow:
                    if remembersValues { replaced = recordDelivered(value, in: &state) }
                    // `nil` rather than an empty array when nothing is retired (nearly always), so
                    // the send releases nothing.
                    let retired = state.retired.isEmpty ? nil : takeRetired(&state)
                    return (publishEntries(&state), cancellations.load(ordering: .relaxed), retired)
                case .drain:
                    state.queue.append(value)
                    drains = true
                    return nil
                default:
                    state.queue.append(value)
                    return nil
                }
            }
            guard let (entries, epoch, retired) = start else {
                if drains { finishDelivering() }
                return  // otherwise the thread delivering delivers it
            }
            _ = consume retired  // freed here, by the holder of the role, outside the lock
            _ = consume replaced  // released before the handlers run
            deliver(value, to: entries, epoch: epoch)
        }
        finishDelivering()
    }

    /// The snapshot a send without the lock delivers to. Read by the holder of the role, which
    /// took it from a fresh state (see "Sending without the lock").
    @inlinable
    var snapshot: UnsafeBufferPointer<Entry?> {
        UnsafeBufferPointer(
            start: UnsafePointer(bitPattern: snapshotAddress.load(ordering: .relaxed)),
            count: snapshotCount.load(ordering: .relaxed))
    }

    /// The entries, for a delivery about to read them without the lock: where the buffer's
    /// elements are, not a reference to the buffer. Called under the lock by the holder of the
    /// delivery role.
    ///
    /// No reference is needed: by "Publication", a published buffer is neither written nor freed
    /// until its reader gave the role up (a replaced one is retired, and kept alive until then).
    /// None is taken: a retain and a release were a sixth of a send to one handler.
    ///
    /// It is also the snapshot sends without the lock deliver to (see "Sending without the lock"),
    /// so it is called in every hold of the lock that marks the snapshot fresh.
    @inlinable
    func publishEntries(_ state: inout State) -> UnsafeBufferPointer<Entry?> {
        state.published = true
        let entries = state.entries.withUnsafeBufferPointer { $0 }
        if sendsWithoutLock {
            snapshotAddress.store(UInt(bitPattern: entries.baseAddress), ordering: .relaxed)
            snapshotCount.store(entries.count, ordering: .relaxed)
        }
        return entries
    }
}
