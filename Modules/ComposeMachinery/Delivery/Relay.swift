import DequeModule
import Synchronization

/// Compose's serial executor: events sent from any thread are handled by one handler, one at a
/// time, in the order they were sent.
///
/// The store notifies its observers through one, a component host applies every change of its
/// tree through one, a router announces its changes through one, autosave decides and saves
/// through two, a store's `setState` queue runs through one, and every operator with several
/// inputs (`merge`, `debounce`, ...) funnels them through one. Its protocol is the emitters'
/// (``DeliveryStateMachine``):
///
/// - **Inline** (the default): the thread that sends while nothing is being handled handles the
///   event at once, on its own stack; an event sent meanwhile (by another thread, or by the
///   handler itself) is queued and handled by that thread, in order, before its `send` returns.
///   No thread waits for another.
/// - **Scheduled**: events are handled on a thread the relay's `schedule` provides (a detached
///   task, a dispatch queue), one at a time, in order; the sender only queues. For work that must
///   not run on the caller's thread (file I/O, a store's queued `setState`).
///
/// The handler is never called concurrently with itself, and never under a lock. It is taken
/// under the lock with each event, so once ``stop()`` has returned no event handled afterwards
/// reaches it, and it is released then. A handler usually captures its owner weakly: the owner
/// keeps the relay.
@usableFromInline
package final class Relay<Event: Sendable>: @unchecked Sendable {  // `books` under the word's lock.
    /// Where a relay handles events.
    @usableFromInline
    package enum Running: Sendable {
        /// On the sending thread, or the thread handling events at the moment.
        case inline
        /// On whatever thread `schedule` runs the work it is given (exactly once).
        case scheduled(@Sendable (_ work: @escaping @Sendable () -> Void) -> Void)

        /// On a detached task of Swift's concurrency pool.
        package static var detachedTask: Running {
            .scheduled { work in Task.detached { work() } }
        }
    }

    @usableFromInline
    struct Books {
        @usableFromInline var queue: Deque<Event> = []
        /// Set by ``start(_:)``; dropped by ``stop()``.
        @usableFromInline var handler: (@Sendable (Event) -> Void)?
    }

    @usableFromInline let word = DeliveryWord()
    @exclusivity(unchecked) @usableFromInline var books = Books()
    @usableFromInline let running: Running
    /// The thread handling events now, or 0.
    @usableFromInline let handlingThread = Atomic<UInt>(0)

    @usableFromInline
    package init(running: Running = .inline) {
        self.running = running
    }

    /// Sets the handler. Call it once.
    @usableFromInline
    package func start(_ handler: @escaping @Sendable (Event) -> Void) {
        let (state, _) = word.apply(DeliveryStateMachine.lock)
        precondition(books.handler == nil, "Relay.start called twice")
        books.handler = handler
        word.store(DeliveryStateMachine.unlocked(state))
    }

    /// Stops handling events: once it has returned, no event handled afterwards reaches the
    /// handler (an event being handled at that moment finishes). Idempotent.
    @usableFromInline
    package func stop() {
        let (state, _) = word.apply(DeliveryStateMachine.lock)
        var dropped = books.handler
        books.handler = nil
        word.store(DeliveryStateMachine.unlocked(state))
        dropped = nil  // released after the lock: a closure's deinit is user code
        _ = dropped
    }

    /// Handles `event` after every event sent before it.
    @inlinable
    package func send(_ event: Event) {
        let state: DeliveryState
        if case .inline = running {
            let (taken, action) = word.apply(DeliveryStateMachine.send)
            if action == .deliverNow {
                let handler = books.handler
                word.store(DeliveryStateMachine.startedDelivering(taken))
                handle(event, with: handler)
                finish()
                return
            }
            state = taken
        } else {
            state = word.apply(DeliveryStateMachine.lock).0
        }
        books.queue.append(event)
        let (next, action) = DeliveryStateMachine.enqueued(state)
        word.store(next)
        if action == .drain { drainHere() }
    }

    /// Queues `event` without handling it: for a caller that orders events by a lock of its own
    /// (a store queues a commit's notice under the store's lock), then calls ``drain()`` after
    /// releasing it. Never calls the handler, so it is safe under any lock.
    @inlinable
    package func enqueue(_ event: Event) {
        let (state, _) = word.apply(DeliveryStateMachine.lock)
        books.queue.append(event)
        word.store(DeliveryStateMachine.enqueuedForLater(state))
    }

    /// Handles what ``enqueue(_:)`` queued, unless events are being handled (then they will be).
    @inlinable
    @usableFromInline
    package func drain() {
        let (_, action) = word.apply(DeliveryStateMachine.claim)
        if action == .drain { drainHere() }
    }

    /// Whether the current thread is handling this relay's events (its handler is running here).
    package var isHandlingOnCurrentThread: Bool {
        handlingThread.load(ordering: .relaxed) == ThreadIdentity.current
    }

    /// The number of events queued and not handled yet.
    package var backlog: Int {
        _ = word.apply(DeliveryStateMachine.lock)
        let count = books.queue.count
        word.store(DeliveryStateMachine.unlocked(word.current))
        return count
    }

    // MARK: Handling

    /// This thread holds the role and the queue is not empty: handles it here, or schedules
    /// that.
    @usableFromInline
    func drainHere() {
        switch running {
        case .inline: finish()
        case .scheduled(let schedule): schedule { self.finish() }
        }
    }

    /// Calls `handler` (taken under the lock with the event) without the lock.
    @inlinable
    func handle(_ event: Event, with handler: (@Sendable (Event) -> Void)?) {
        guard let handler else { return }
        handlingThread.store(ThreadIdentity.current, ordering: .relaxed)
        handler(event)
        handlingThread.store(0, ordering: .relaxed)
    }

    /// Handles the queue, then gives the role up.
    @usableFromInline
    func finish() {
        while true {
            let (state, action) = word.apply(DeliveryStateMachine.finish)
            guard action == .takeNext else { return }
            let event = books.queue.removeFirst()
            let handler = books.handler
            word.store(DeliveryStateMachine.tookNext(state, queueIsEmpty: books.queue.isEmpty))
            handle(event, with: handler)
        }
    }
}
