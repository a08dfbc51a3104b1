import DequeModule
import Synchronization

/// The registry of handlers and the serial delivery loop behind every emitter.
///
/// ## Delivery
/// Values are delivered one at a time, to the handlers in subscription order, on the thread that
/// called `send`. If the core is already delivering (a handler sent again on the same emitter,
/// or another thread is in the middle of a send), the value is queued and the thread that is
/// delivering delivers it, in send order, before its own `send` returns (or, if that thread
/// finished in the very moment the value was queued, the sender delivers it itself). Two
/// consequences that every operator relies on:
/// - a handler is never called concurrently with itself, nor with any other handler of the same
///   emitter, and every handler sees the values in the same order;
/// - no thread ever waits for another: a reentrant or concurrent send cannot deadlock.
///
/// ## Registry
/// Entries live in a contiguous array, in subscription order. Cancelling leaves a tombstone
/// (amortized O(1)); the array is compacted once tombstones outnumber live entries. A delivery
/// iterates a snapshot of the array (a retain, no copy), so subscribing or cancelling during a
/// delivery copies the array once (copy-on-write) and leaves the delivery undisturbed.
///
/// ## Cancellation during a delivery
/// `cancellations` counts cancellations. The delivery loop compares it with the count it saw
/// when it took its snapshot and only looks at an entry's token when they differ, so the common
/// case costs one load per handler from a cache line the loop already holds.
@usableFromInline
package final class EmitterCore<Value: Sendable>: @unchecked Sendable {
    @usableFromInline
    package typealias Token = EmitterToken

    @usableFromInline
    struct Entry {
        @usableFromInline let handler: @Sendable (Value) -> Void
        @usableFromInline let token: Token

        @inlinable
        init(handler: @escaping @Sendable (Value) -> Void, token: Token) {
            self.handler = handler
            self.token = token
        }
    }

    @usableFromInline
    struct State {
        @usableFromInline var entries: ContiguousArray<Entry?> = []
        @usableFromInline var tombstones = 0
        /// Values sent while a delivery was in progress, in send order.
        @usableFromInline var queue: Deque<Value> = []
        /// Current values owed to subscribers that asked for one (``Emitters/WithCurrent``) while
        /// a delivery was in progress. Delivered before `queue`, since they are older.
        @usableFromInline var replays: Deque<(Value, Token)> = []
        /// The value most recently sent (``ValueEmitter/lastValue``).
        @usableFromInline var lastSent: Value?
        /// The value whose delivery started most recently: the "current" value a new subscriber
        /// is owed, and the "previous" value of `~+=`.
        @usableFromInline var lastDelivered: Value?

        @inlinable
        init() {}
    }

    @usableFromInline let state = LockedState<State>(State())
    /// Incremented (under the lock) after a token is marked cancelled.
    @usableFromInline let cancellations = Atomic<UInt>(0)
    /// Whether a thread owns the delivery role. Set under the lock; cleared by its owner alone,
    /// without the lock (see "Sending").
    @usableFromInline let delivering = Atomic<Bool>(false)
    /// The number of values in `State.queue` and `State.replays`. Changed under the lock only.
    @usableFromInline let backlog = Atomic<Int>(0)
    /// The number of live handlers, readable without the lock.
    @usableFromInline let live = Atomic<Int>(0)
    /// Shown in the event log.
    @usableFromInline let label: String?
    /// Whether the core keeps `lastSent` and `lastDelivered` (value emitters do, relays don't).
    @usableFromInline let remembersValues: Bool
    /// Whether sends are recorded in the event log while it is enabled.
    @usableFromInline let isLogged: Bool
    /// The event log's switch, held directly so a send checks it with one relaxed atomic load
    /// and no lazy-global guard.
    @usableFromInline let logSwitch = EventLog.logSwitch

    @usableFromInline
    package init(label: String?, remembersValues: Bool, isLogged: Bool = true) {
        self.label = label
        self.remembersValues = remembersValues
        self.isLogged = isLogged
    }

    // MARK: Sending
    //
    // One thread at a time owns the delivery role (`delivering`). It is claimed under the lock,
    // and only when nothing is queued, so values leave in the order they were sent. The owner
    // gives it up without the lock: it clears `delivering`, then looks at `backlog`. A sender that
    // queued a value does the opposite: it bumps `backlog` under the lock, then looks at
    // `delivering`. Both steps are sequentially consistent, so at least one of the two sees the
    // other, and whoever does takes the role back (under the lock, so only one can) and delivers
    // the backlog. A send that finds nothing queued therefore costs one lock round trip and one
    // atomic store, and a queued value is never stranded.

    /// Delivers `value` to every handler, or queues it if a delivery is in progress.
    ///
    /// - Complexity: O(*n*) handler calls; no allocation unless the value has to be queued.
    @inlinable
    package func send(_ value: Value) {
        if logSwitch.isOn, isLogged {
            EventLog.record(.send, source: logSource, payload: value)
        }
        let start: (ContiguousArray<Entry?>, UInt)? = state.withLock { state in
            if remembersValues { state.lastSent = value }
            // `backlog` only changes under the lock, so a relaxed load is exact here.
            if delivering.load(ordering: .acquiring) || backlog.load(ordering: .relaxed) > 0 {
                state.queue.append(value)
                backlog.add(1, ordering: .sequentiallyConsistent)
                return nil
            }
            delivering.store(true, ordering: .relaxed)
            if remembersValues { state.lastDelivered = value }
            return (state.entries, cancellations.load(ordering: .relaxed))
        }
        guard let (entries, epoch) = start else {
            // Queued. If the owner left before it could see the value, deliver it ourselves.
            if !delivering.load(ordering: .sequentiallyConsistent) { resume() }
            return
        }
        deliver(value, to: entries, epoch: epoch)
        finishDelivering()
    }

    /// Calls every live handler of `entries` with `value`. No lock is held.
    @inlinable
    func deliver(_ value: Value, to entries: ContiguousArray<Entry?>, epoch: UInt) {
        entries.withUnsafeBufferPointer { buffer in
            for index in buffer.indices where buffer[index] != nil {
                if cancellations.load(ordering: .acquiring) != epoch,
                    buffer[index].unsafelyUnwrapped.token.isCancelled
                {
                    continue
                }
                buffer[index].unsafelyUnwrapped.handler(value)
            }
        }
    }

    /// The next queued delivery, taken from the backlog.
    @usableFromInline
    enum Next {
        case broadcast(Value, ContiguousArray<Entry?>, epoch: UInt)
        case replay(Value, @Sendable (Value) -> Void)
    }

    /// Called by the owner of the delivery role when it has nothing in hand: delivers the backlog,
    /// then gives up the role.
    @inlinable
    func finishDelivering() {
        while true {
            if backlog.load(ordering: .sequentiallyConsistent) == 0 {
                delivering.store(false, ordering: .sequentiallyConsistent)
                // A value queued before the store was seen by nobody yet: take the role back.
                guard backlog.load(ordering: .sequentiallyConsistent) > 0, claim() else { return }
            }
            let next: Next? = state.withLock { state in
                // `isEmpty` first: popping is a mutation, which checks the deque's uniqueness.
                while !state.replays.isEmpty {
                    let (value, token) = state.replays.removeFirst()
                    backlog.subtract(1, ordering: .sequentiallyConsistent)
                    // The token may have been cancelled since it was queued.
                    guard !token.isCancelled, let entry = state.entries[token.index] else { continue }
                    return .replay(value, entry.handler)
                }
                guard !state.queue.isEmpty else { return nil }
                let value = state.queue.removeFirst()
                backlog.subtract(1, ordering: .sequentiallyConsistent)
                if remembersValues { state.lastDelivered = value }
                return .broadcast(value, state.entries, epoch: cancellations.load(ordering: .relaxed))
            }
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

    /// Takes the delivery role if nobody holds it and something is queued.
    @inlinable
    func claim() -> Bool {
        state.withLock { _ in
            guard !delivering.load(ordering: .acquiring), backlog.load(ordering: .relaxed) > 0 else { return false }
            delivering.store(true, ordering: .relaxed)
            return true
        }
    }

    /// Delivers a backlog that its sender found unowned.
    @inlinable
    func resume() {
        if claim() { finishDelivering() }
    }

    /// Queues `value` without delivering it.
    ///
    /// For a caller that must deliver values in the order its own lock assigns them (a store
    /// notifies in commit order): call this under that lock, then ``deliverBacklog()`` after
    /// releasing it. Nesting is safe: this lock is never held while taking another.
    @inlinable
    package func enqueue(_ value: Value) {
        state.withLock { state in
            state.queue.append(value)
            backlog.add(1, ordering: .sequentiallyConsistent)
        }
    }

    /// Delivers what ``enqueue(_:)`` queued, unless another thread is delivering (then it will).
    @inlinable
    package func deliverBacklog() {
        if !delivering.load(ordering: .sequentiallyConsistent) { resume() }
    }

    /// Whether any handler is registered; a relaxed read, without the lock.
    @inlinable
    package var hasSubscribers: Bool {
        live.load(ordering: .relaxed) > 0
    }

    // MARK: Registering

    /// Adds `handler` after every existing handler.
    ///
    /// - Parameters:
    ///   - replayCurrent: Deliver the current value (the last one whose delivery started) to the
    ///     new handler first, through the same serial delivery as every other value.
    ///   - whileRegistering: Internal bookkeeping run under the lock, atomically with the
    ///     registration, with the current value. Never user code.
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
        let token = Token(core: self) { core, token in
            unsafeDowncast(core, to: EmitterCore<Value>.self).remove(token)
        }
        let replay: Value? = state.withLock { state in
            token.index = state.entries.count
            state.entries.append(Entry(handler: handler, token: token))
            live.add(1, ordering: .relaxed)
            whileRegistering?(state.lastDelivered)
            guard replayCurrent, let current = state.lastDelivered else { return nil }
            if delivering.load(ordering: .acquiring) || backlog.load(ordering: .relaxed) > 0 {
                // Owed before anything queued: the current value is older than the backlog.
                state.replays.append((current, token))
                backlog.add(1, ordering: .sequentiallyConsistent)
                return nil
            }
            delivering.store(true, ordering: .relaxed)
            return current
        }
        if let replay {
            handler(replay)
            finishDelivering()
        } else if replayCurrent, !delivering.load(ordering: .sequentiallyConsistent) {
            resume()
        }
        return token
    }

    /// Removes a cancelled token's entry.
    ///
    /// - Complexity: Amortized O(1).
    @inlinable
    func remove(_ token: Token) {
        // The removed handler (and, after compaction, the old array) is released after the lock
        // is dropped: releasing a closure can run a deinit, which is user code.
        let released: (Entry?, ContiguousArray<Entry?>?) = state.withLock { state in
            let index = token.index
            guard index < state.entries.count, let entry = state.entries[index], entry.token === token else {
                return (nil, nil)
            }
            state.entries[index] = nil
            state.tombstones += 1
            live.subtract(1, ordering: .relaxed)
            cancellations.add(1, ordering: .releasing)
            guard state.tombstones > 16, state.tombstones * 2 > state.entries.count else {
                return (entry, nil)
            }
            return (entry, Self.compact(&state))
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

    var lastSent: Value? {
        state.withLock { $0.lastSent }
    }

    /// How this core is named in the event log.
    @usableFromInline
    var logSource: String {
        label ?? "\(Value.self == Void.self ? "SignalEmitter" : "ValueEmitter<\(Value.self)>")@\(ObjectIdentifier(self))"
    }
}
