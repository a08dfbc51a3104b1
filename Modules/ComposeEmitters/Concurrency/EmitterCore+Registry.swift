import ComposeMachinery
import DequeModule
import Synchronization

// The registry: adding and removing handlers, and what can be read of it.

extension EmitterCore {
    /// Adds `handler` after every existing handler.
    ///
    /// - Parameters:
    ///   - replayCurrent: Deliver the current value (the last one whose delivery started) to the
    ///     new handler first, through the same serial delivery as every other value.
    ///   - whileRegistering: Internal bookkeeping run under the lock with the current value,
    ///     before any value reaches the new handler. Never user code. When nobody delivers, it
    ///     runs now, atomically with the registration; otherwise the holder of the role, which
    ///     may be writing the current value, runs it before it delivers anything more.
    /// - Returns: The subscription that removes the handler.
    /// - Complexity: Amortized O(1).
    @inlinable
    package func register(
        _ handler: @escaping @Sendable (Value) -> Void,
        replayCurrent: Bool = false,
        whileRegistering: ((Value?) -> Void)? = nil
    ) -> Token {
        // The closure captures nothing, so it costs no allocation, and it is formed here, where
        // `Value` is known, so cancelling runs specialized code.
        let handle = lazyHandle.get {
            RegistryHandle(registry: self) { core, token in
                unsafeDowncast(core, to: EmitterCore<Value>.self).remove(token)
            }
        }
        let token = Token(handle: handle)
        let entry = Entry(handler: handler, token: token)
        // Retired buffers are released after the lock is dropped.
        let (start, retired): (Replay, ContiguousArray<ContiguousArray<Entry?>>) = state.withLock { state in
            let retired = prepareEntriesForWriting(&state)
            token.index = state.entries.count
            state.entries.append(entry)
            live.add(1, ordering: .relaxed)
            guard replayCurrent || whileRegistering != nil else { return (.none, retired) }
            // The current value is the holder's to write: take the role to read it, or leave
            // the registration to whoever holds it.
            switch applyHoldingLock(DeliveryStateMachine.send) {
            case .deliverNow:
                // The transition marked the snapshot fresh: publish it in this hold.
                _ = publishEntries(&state)
                let current = lastDelivered(in: &state)
                whileRegistering?(current)
                guard replayCurrent, let current else { return (.finish, retired) }
                return (.now(current), retired)
            case let action:
                // Counted already; before the values queued for later, since it is older.
                state.replays.append(
                    PendingRegistration(token: token, replaysCurrent: replayCurrent, whileRegistering: whileRegistering))
                return (action == .drain ? .finish : .none, retired)
            }
        }
        _ = consume retired  // released here, outside the lock, before anything is delivered
        switch start {
        case .now(let current):
            handler(current)
            finishDelivering()
        case .finish:
            finishDelivering()
        case .none:
            break
        }
        return token
    }

    /// What a registration does after unlocking.
    @usableFromInline
    enum Replay {
        /// It took the role: call the new handler with the current value, then deliver the queue.
        case now(Value)
        /// It took the role: deliver what waits, and give the role up.
        case finish
        /// Nothing: no replay, or the thread delivering delivers it.
        case none
    }

    /// Removes a cancelled token's entry.
    ///
    /// - Complexity: Amortized O(1).
    @inlinable
    func remove(_ token: Token) {
        // The removed handler (and, after compaction, the old array) is released after the lock
        // is dropped: releasing a closure can run a deinit, which is user code.
        let released: (Entry?, ContiguousArray<Entry?>?, ContiguousArray<ContiguousArray<Entry?>>) = state.withLock { state in
            let index = token.index
            guard index < state.entries.count, let entry = state.entries[index], entry.token === token else {
                return (nil, nil, [])
            }
            let retired = prepareEntriesForWriting(&state)
            state.entries[index] = nil
            state.tombstones += 1
            live.subtract(1, ordering: .relaxed)
            cancellations.add(1, ordering: .releasing)
            guard state.tombstones > 16, state.tombstones * 2 > state.entries.count else {
                return (entry, nil, retired)
            }
            return (entry, Self.compact(&state), retired)
        }
        _ = released
    }

    /// Drops the tombstones, keeping order, and renumbers the tokens.
    ///
    /// - Returns: The old array, to be released by the caller after unlocking.
    @inlinable
    static func compact(_ state: inout State) -> ContiguousArray<Entry?> {
        var live = ContiguousArray<Entry?>()
        live.reserveCapacity(state.entries.count - state.tombstones)
        for case let entry? in state.entries {
            entry.token.index = live.count
            live.append(entry)
        }
        state.tombstones = 0
        swap(&live, &state.entries)
        return live
    }

    // MARK: Inspection

    /// The number of live handlers.
    package var subscriberCount: Int {
        state.withLock { $0.entries.count - $0.tombstones }
    }

    /// The value most recently sent (``ValueEmitter/lastValue``): the last one queued, or else
    /// the last one whose delivery started (every queued value was sent after it).
    var lastSent: Value? {
        state.withLock { state in state.queue.last ?? lastDelivered(in: &state) }
    }

    /// How this core is named in the event log.
    @usableFromInline
    var logSource: String {
        label ?? "\(Value.self == Void.self ? "SignalEmitter" : "ValueEmitter<\(Value.self)>")@\(ObjectIdentifier(self))"
    }
}
