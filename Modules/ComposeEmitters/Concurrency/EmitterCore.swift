import ComposeMachinery
import DequeModule
import Synchronization

/// The registry of handlers and the serial delivery behind every emitter.
///
/// ## Delivery
/// Values are delivered one at a time, to the handlers in subscription order, by the protocol of
/// ``DeliveryStateMachine``: the thread that sends while nobody delivers delivers at once, on its
/// own stack; a value sent while somebody delivers (another thread, or a handler sending again)
/// is queued, and the thread delivering delivers it, in send order, before its own `send`
/// returns (after a thousand such values in one go, it hands the rest to a task instead: see
/// "No thread is kept delivering forever" there). Two consequences that every operator relies on:
/// - a handler is never called concurrently with itself, nor with any other handler of the same
///   emitter, and every handler sees the values in the same order;
/// - no thread ever waits for a delivery: a reentrant or concurrent send cannot deadlock.
///
/// ## Registry
/// Entries live in a contiguous array, in subscription order. Cancelling leaves a tombstone
/// (amortized O(1)); the array is compacted once tombstones outnumber live entries. A delivery
/// iterates a snapshot of the array (a retain, no copy), taken under the lock; a subscription or
/// cancellation during a delivery finds the buffer shared and copies it, so the delivery is
/// undisturbed. The snapshot is released before the role is given up (under the lock), and the
/// next writer takes the lock after that, so its in-place writes happen after every read of the
/// delivery, visibly to ThreadSanitizer (which cannot see reference counts).
///
/// ## Cancellation during a delivery
/// `cancellations` counts cancellations. The delivery loop compares it with the count it saw
/// when it took its snapshot and only looks at an entry's token when they differ, so the common
/// case costs one load per handler from a cache line the loop already holds.
///
/// ## Locks
/// The bookkeeping (the delivery state, handlers, queue, last values) is guarded by one
/// ``LockedState``, held for a few instructions and never while user code runs: handlers are
/// called after it is released, and values and closures it replaces are released after it too (a
/// deinit is user code).
@usableFromInline
package final class EmitterCore<Value: Sendable>: @unchecked Sendable {  // `books` under the word's lock.
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
    struct Books {
        @usableFromInline var entries: ContiguousArray<Entry?> = []
        @usableFromInline var tombstones = 0
        @usableFromInline var delivery = DeliveryState()
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

    @usableFromInline let books = LockedState(Books())
    /// Incremented (under the lock) after a token is marked cancelled.
    @usableFromInline let cancellations = Atomic<UInt>(0)
    /// The number of live handlers, readable without the lock.
    @usableFromInline let live = Atomic<Int>(0)
    /// Shown in the event log.
    @usableFromInline let label: String?
    /// Whether the core keeps `lastSent` and `lastDelivered` (value emitters do).
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

    /// Delivers `value` to every handler, or queues it if a delivery is in progress.
    ///
    /// - Complexity: O(*n*) handler calls; no allocation unless the value has to be queued.
    @inlinable
    package func send(_ value: Value) {
        if logSwitch.isOn, isLogged {
            EventLog.record(.send, source: logSource, payload: value)
        }
        // The values this send replaces as the last sent and the last delivered are released
        // after the lock: a release can run a deinit, which is user code and may read this
        // emitter. The snapshot lives in the inner scope only: it is released before `finish`
        // gives the role up.
        var replacedSent: Value?
        var replacedDelivered: Value?
        do {
            let start: Start = books.withLock { books in
                if remembersValues {
                    replacedSent = value
                    swap(&books.lastSent, &replacedSent)
                }
                switch DeliveryStateMachine.send(&books.delivery) {
                case .deliverNow:
                    if remembersValues {
                        replacedDelivered = value
                        swap(&books.lastDelivered, &replacedDelivered)
                    }
                    return .deliver(books.entries, epoch: cancellations.load(ordering: .relaxed))
                default:
                    books.queue.append(value)
                    return DeliveryStateMachine.enqueued(&books.delivery) == .drain ? .drain : .queued
                }
            }
            replacedSent = nil
            replacedDelivered = nil
            switch start {
            case .deliver(let entries, let epoch):
                deliver(value, to: entries, epoch: epoch)
            case .drain:
                break
            case .queued:
                return  // the thread delivering delivers it
            }
        }
        finish()
    }

    /// What a send does after unlocking.
    @usableFromInline
    enum Start {
        /// It took the role: deliver the value to these entries, then the queue.
        case deliver(ContiguousArray<Entry?>, epoch: UInt)
        /// It queued the value and took the role: deliver the queue.
        case drain
        /// It queued the value; the thread delivering delivers it.
        case queued
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

    /// Called by the holder of the delivery role when it has nothing in hand: delivers the
    /// backlog, then gives the role up.
    @inlinable
    func finish() {
        while true {
            // `next` (and the snapshot in it) is released at the end of each turn, before the
            // role is given up at the top of the next (under the lock).
            var replaced: Value?
            let next: Next?? = books.withLock { books in
                guard DeliveryStateMachine.finish(&books.delivery) == .takeNext else { return nil }
                let next = nextDelivery(&books, replacing: &replaced)
                DeliveryStateMachine.tookNext(&books.delivery, queueIsEmpty: books.queue.isEmpty && books.replays.isEmpty)
                return .some(next)
            }
            replaced = nil  // released outside the lock (a deinit is user code)
            guard let next else { return }
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

    /// Takes the next queued delivery. Called under the lock by the holder of the role.
    ///
    /// - Parameter replaced: Receives the value this delivery replaces as the last delivered,
    ///   for the caller to release after unlocking.
    @inlinable
    func nextDelivery(_ books: inout Books, replacing replaced: inout Value?) -> Next? {
        // `isEmpty` first: popping is a mutation, which checks the deque's uniqueness.
        while !books.replays.isEmpty {
            let (value, token) = books.replays.removeFirst()
            // The token may have been cancelled since it was queued.
            guard !token.isCancelled, let entry = books.entries[token.index] else { continue }
            return .replay(value, entry.handler)
        }
        guard !books.queue.isEmpty else { return nil }
        let value = books.queue.removeFirst()
        if remembersValues {
            replaced = value
            swap(&books.lastDelivered, &replaced)
        }
        return .broadcast(value, books.entries, epoch: cancellations.load(ordering: .relaxed))
    }

    /// Queues `value` without delivering it.
    ///
    /// For a caller that must deliver values in the order its own lock assigns them (a store
    /// notifies in commit order): call this under that lock, then ``deliverBacklog()`` after
    /// releasing it. Never calls a handler, so it is safe under any lock.
    @inlinable
    package func enqueue(_ value: Value) {
        books.withLock { books in
            books.queue.append(value)
            DeliveryStateMachine.enqueuedForLater(&books.delivery)
        }
    }

    /// Delivers what ``enqueue(_:)`` queued, unless another thread is delivering (then it will).
    @inlinable
    package func deliverBacklog() {
        if books.withLock({ DeliveryStateMachine.claim(&$0.delivery) == .drain }) { finish() }
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
        let replay: Value? = books.withLock { books in
            token.index = books.entries.count
            books.entries.append(Entry(handler: handler, token: token))
            live.add(1, ordering: .relaxed)
            whileRegistering?(books.lastDelivered)
            guard replayCurrent, let current = books.lastDelivered else { return nil }
            if DeliveryStateMachine.replay(&books.delivery) == .deliverNow { return current }
            // Owed before anything queued: the current value is older than the backlog.
            books.replays.append((current, token))
            return nil
        }
        if let replay {
            handler(replay)
            finish()
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
        let released: (Entry?, ContiguousArray<Entry?>?) = books.withLock { books in
            let index = token.index
            guard index < books.entries.count, let entry = books.entries[index], entry.token === token else {
                return (nil, nil)
            }
            books.entries[index] = nil
            books.tombstones += 1
            live.subtract(1, ordering: .relaxed)
            cancellations.add(1, ordering: .releasing)
            guard books.tombstones > 16, books.tombstones * 2 > books.entries.count else { return (entry, nil) }
            return (entry, Self.compact(&books))
        }
        _ = released
    }

    /// Drops the tombstones, keeping order, and renumbers the tokens.
    ///
    /// - Returns: The old array, to be released by the caller after unlocking.
    @inlinable
    static func compact(_ books: inout Books) -> ContiguousArray<Entry?> {
        var live = ContiguousArray<Entry?>()
        live.reserveCapacity(books.entries.count - books.tombstones)
        for case let entry? in books.entries {
            entry.token.index = live.count
            live.append(entry)
        }
        books.tombstones = 0
        swap(&live, &books.entries)
        return live
    }

    // MARK: Inspection

    /// Runs `body` on the bookkeeping, under the lock. `body` must not call user code.
    @inlinable
    func inspect<Result>(_ body: (Books) -> Result) -> Result {
        books.withLock { body($0) }
    }

    /// The number of live handlers.
    package var subscriberCount: Int {
        inspect { $0.entries.count - $0.tombstones }
    }

    var lastSent: Value? {
        inspect { $0.lastSent }
    }

    /// How this core is named in the event log.
    @usableFromInline
    var logSource: String {
        label ?? "\(Value.self == Void.self ? "SignalEmitter" : "ValueEmitter<\(Value.self)>")@\(ObjectIdentifier(self))"
    }
}
