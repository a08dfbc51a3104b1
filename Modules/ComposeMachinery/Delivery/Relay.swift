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
/// The handler is never called concurrently with itself, and never under a lock. Once ``stop()``
/// has returned, no event handled afterwards reaches it (an event being handled at that moment
/// finishes), and it is released when that event is done. A handler usually captures its owner
/// weakly: the owner keeps the relay.
///
/// The thread holding the role takes the whole queue at once (``DeliveryStateMachine/tookAll(_:count:)``)
/// and handles it without the lock, so threads that queue in a tight loop, taking and releasing
/// the lock as fast as they can, cannot starve it: each time it gets the lock it takes everything
/// they queued. It swaps the queue with a second one it keeps for the purpose, so a relay in use
/// allocates nothing per event.
@usableFromInline
package final class Relay<Event: Sendable>: @unchecked Sendable {  // State under `books`' lock.
    /// Where a relay handles events.
    @usableFromInline
    package enum Running: Sendable {
        /// On the sending thread, or the thread handling events at the moment.
        case inline
        /// On whatever thread `schedule` runs the work it is given (exactly once).
        case scheduled(@Sendable (_ work: @escaping @Sendable () -> Void) -> Void)

        /// On the main actor: inline when sent there, otherwise on a task on the main actor. For
        /// work that must run where a main-actor app's code runs (a main-actor component host).
        case mainActor
        /// On a detached task of Swift's concurrency pool.
        package static var detachedTask: Running {
            .scheduled { work in Task.detached { work() } }
        }
    }

    @usableFromInline
    struct Books {
        /// Events not handled yet, in the order they were sent.
        @usableFromInline var queue: Deque<Event> = []
        /// Set by ``start(_:)``; dropped by ``stop()``.
        @usableFromInline var handler: Handler?

        @inlinable
        init() {}
    }

    /// The handler, in a struct so that taking it out of the lock (a generic `withLock`) moves
    /// a struct: a bare closure returned through a generic result is re-abstracted, and the thunk
    /// costs an allocation per event.
    @usableFromInline
    struct Handler {
        @usableFromInline let handle: @Sendable (Event) -> Void

        @inlinable
        init(_ handle: @escaping @Sendable (Event) -> Void) {
            self.handle = handle
        }
    }

    @usableFromInline let books = LockedState(Books())
    /// The delivery role and the number of events in `Books.queue`, changed by the transitions of
    /// ``DeliveryStateMachine`` only.
    @usableFromInline let delivery = DeliveryWord()
    /// The events the holder of the role took from the queue and has not handled yet. Only the
    /// holder touches it (the role is handed from one holder to the next through `delivery`'s
    /// sequentially consistent transitions, which order their accesses); empty, with its
    /// capacity kept, between batches. Only one thread can reach it at a time, so the dynamic
    /// exclusivity check a class's `var` gets (two runtime calls per access) is off.
    @exclusivity(unchecked) @usableFromInline nonisolated(unsafe) var inHand: Deque<Event> = []
    /// The event ``keepTaken(_:)`` keeps for the owner that took the role, until
    /// ``handleTaken(_:)`` hands it back. Only the holder of the role touches it, as ``inHand``:
    /// an owner that took the role keeps its event here rather than carrying it through its lock
    /// and back.
    @exclusivity(unchecked) @usableFromInline nonisolated(unsafe) var taken: Event?
    /// Set by ``stop()``: the holder drops the rest of its batch.
    @usableFromInline let isStopped = Atomic<Bool>(false)
    @usableFromInline let running: Running
    /// The thread handling events now, or 0.
    @usableFromInline let handlingThread = Atomic<UInt>(0)

    /// Whether ``takeTheRoleIfIdle()`` is used: a thread may then take the role from idle
    /// without `books`' lock, so the transitions applied under it are compare-and-exchanges
    /// (see ``DeliveryWord/applyHoldingLock(_:)``).
    @usableFromInline let roleIsTakenUnderOwnersLock: Bool

    /// - Parameters:
    ///   - running: Where events are handled.
    ///   - roleIsTakenUnderOwnersLock: Whether the owner queues events with
    ///     ``takeTheRoleIfIdle()`` (an inline relay only).
    @usableFromInline
    package init(running: Running = .inline, roleIsTakenUnderOwnersLock: Bool = false) {
        if roleIsTakenUnderOwnersLock {
            guard case .inline = running else {
                preconditionFailure("Relay: only an inline relay lets its owner take the role")
            }
        }
        self.running = running
        self.roleIsTakenUnderOwnersLock = roleIsTakenUnderOwnersLock
    }

    /// Sets the handler. Call it once.
    @usableFromInline
    package func start(_ handler: @escaping @Sendable (Event) -> Void) {
        books.withLock { books in
            precondition(books.handler == nil, "Relay.start called twice")
            books.handler = Handler(handler)
        }
    }

    /// Stops handling events: once it has returned, no event handled afterwards reaches the
    /// handler (an event being handled at that moment finishes), and the handler is released.
    /// Idempotent.
    @usableFromInline
    package func stop() {
        let dropped = books.withLock { books in
            isStopped.store(true, ordering: .releasing)
            defer { books.handler = nil }
            return books.handler
        }
        _ = dropped  // released after the lock: a closure's deinit is user code
    }

    /// Handles `event` after every event sent before it.
    @inlinable
    package func send(_ event: Event) {
        guard handlesInline else {
            enqueue(event)
            drain()
            return
        }
        let handler: Handler?? = books.withLock { books in
            switch applyUnderBooksLock(DeliveryStateMachine.send) {
            case .deliverNow:
                return .some(books.handler)
            case .drain:
                books.queue.append(event)
                return .some(nil)
            default:
                books.queue.append(event)
                return nil
            }
        }
        // `nil`: queued, and the thread handling events handles it.
        guard let handler else { return }
        if let handler { handle(event, with: handler) }
        finish()
    }

    /// Queues `event` without handling it: for a caller that orders events by a lock of its own
    /// (a store queues a commit's notice under the store's lock), then calls ``drain()`` after
    /// releasing it. Never calls the handler, so it is safe under any lock.
    @inlinable
    package func enqueue(_ event: Event) {
        books.withLock { books in
            books.queue.append(event)
            applyUnderBooksLock(DeliveryStateMachine.enqueuedForLater)
        }
    }

    /// For an owner that orders events by a lock of its own, called under that lock: takes the
    /// role if nobody handles events and none wait (one compare-and-exchange, no queue). Never
    /// calls the handler.
    ///
    /// If it returns `true`, the owner hands the event over with ``keepTaken(_:)`` before
    /// releasing its lock, and handles it with ``handleTaken(_:)`` after; otherwise it queues
    /// the event with ``enqueue(_:)`` before releasing its lock, and calls ``drain()`` after.
    /// Events stay in the order of the owner's lock: an event queued after this one, under that
    /// lock, finds the role taken and waits for its holder, which handles this one first.
    ///
    /// Two steps rather than one taking the event: the owner makes the event once it knows
    /// which way it goes, with what it gathers under its lock for the holder of the role (a
    /// store, the observers it collected), and the event goes into the relay where it is made.
    ///
    /// - Returns: Whether the caller took the role (and must hand the event over, then handle it).
    /// - Precondition: The relay was made with `roleIsTakenUnderOwnersLock`.
    @inlinable
    package func takeTheRoleIfIdle() -> Bool {
        precondition(roleIsTakenUnderOwnersLock, "Relay: made without roleIsTakenUnderOwnersLock")
        return delivery.sendWithoutLock()
    }

    /// Keeps the event for which ``takeTheRoleIfIdle()`` just took the role, until
    /// ``handleTaken(_:)``. Called by the thread that took it, still under its own lock.
    @inlinable
    package func keepTaken(_ event: consuming Event) {
        precondition(taken == nil, "Relay.keepTaken: an event is kept already")
        taken = consume event
    }

    /// Handles the event kept by ``keepTaken(_:)``, by calling
    /// `handle` with it (the owner's own way of doing what the relay's handler does with that
    /// event, called directly: no lock, no queue); then handles what was queued meanwhile, and
    /// gives the role up.
    ///
    /// `handle` is called even if the relay was stopped since the role was taken: the owner
    /// took the role and started handling the event under its own lock, and it finishes it.
    /// (A store stops its relay in its `deinit`, when no commit can be running.)
    @inlinable
    package func handleTaken(_ handle: (Event) -> Void) {
        guard let event = taken.take() else { preconditionFailure("Relay.handleTaken: no event was taken") }
        handlingThread.store(ThreadIdentity.current, ordering: .relaxed)
        handle(event)
        handlingThread.store(0, ordering: .relaxed)
        if !delivery.giveUpIfNothingWaits() { finish() }
    }

    /// Applies a transition under `books`' lock: with a plain store from idle when only lock
    /// holders take the role from idle, with a compare-and-exchange otherwise.
    @inlinable
    @discardableResult
    func applyUnderBooksLock(_ transition: (inout DeliveryState) -> DeliveryAction) -> DeliveryAction {
        roleIsTakenUnderOwnersLock ? delivery.apply(transition) : delivery.applyHoldingLock(transition)
    }

    /// Handles what ``enqueue(_:)`` queued, unless events are being handled (then they will be).
    @inlinable
    package func drain() {
        guard delivery.apply(DeliveryStateMachine.claim) == .drain else { return }
        switch running {
        case .inline: finish()
        case .scheduled(let schedule): schedule { self.finish() }
        case .mainActor:
            if MainActorContext.isCurrent {
                finish()
            } else {
                Task { @MainActor in self.finish() }
            }
        }
    }

    /// Whether a send handles its event on the sending thread when nobody else is handling.
    @inlinable
    var handlesInline: Bool {
        switch running {
        case .inline: true
        case .scheduled: false
        case .mainActor: MainActorContext.isCurrent
        }
    }

    /// Whether the current thread is handling this relay's events (its handler is running here).
    package var isHandlingOnCurrentThread: Bool {
        handlingThread.load(ordering: .relaxed) == ThreadIdentity.current
    }

    /// The number of events queued and not yet taken by the thread handling events.
    package var backlog: Int {
        books.withLock { $0.queue.count }
    }

    // MARK: Handling

    /// Calls `handler` (taken under the lock with the event) without the lock.
    @inlinable
    func handle(_ event: Event, with handler: Handler) {
        handlingThread.store(ThreadIdentity.current, ordering: .relaxed)
        handler.handle(event)
        handlingThread.store(0, ordering: .relaxed)
    }

    /// Called by the holder of the role with nothing in hand: handles the queue, a batch at a
    /// time, then gives the role up.
    @inlinable
    func finish() {
        while delivery.apply(DeliveryStateMachine.finish) == .takeNext {
            let handler: Handler? = books.withLock { books in
                swap(&books.queue, &inHand)
                delivery.apply { DeliveryStateMachine.tookAll(&$0, count: inHand.count) }
                return books.handler
            }
            while let event = inHand.popFirst() {
                guard let handler, !isStopped.load(ordering: .acquiring) else {
                    inHand.removeAll(keepingCapacity: true)
                    break
                }
                handle(event, with: handler)
            }
        }
    }
}
