import DequeModule
import Synchronization

extension Relay {
    /// Handles `event` after every event sent before it: here and now if the relay handles events
    /// on this thread and nobody is handling any, otherwise after the events in hand (see
    /// ``Relay``). Dropped once the relay is stopped.
    @inlinable
    package func send(_ event: Event) {
        guard handlesHere else { return sendElsewhere(event) }
        // Nobody handles, nothing waits, not stopped: take the role without the lock. The handler
        // is set before the relay is shared and released only once it is stopped and nobody holds
        // the role, so the holder reads it without the lock.
        if delivery.sendWithoutLock() {
            becomeHolder()
            if let handler { handle(event, with: handler) }
            finishHolding()
            return
        }
        let action = queue.withLock { queue in
            let action = delivery.apply(DeliveryStateMachine.send)
            if action == .enqueue || action == .drain { queue.append(event) }
            return action
        }
        switch action {
        case .deliverNow:
            becomeHolder()
            if let handler { handle(event, with: handler) }
            finishHolding()
        case .drain:
            becomeHolder()
            finishHolding()
        default:
            break  // queued for the holder, or the relay is stopped
        }
    }

    /// Queues `event` for a task on the relay's executor, and sends one unless one is on its way
    /// or somebody handles events there.
    @usableFromInline
    func sendElsewhere(_ event: Event) {
        let action = queue.withLock { queue in
            let action = delivery.apply(DeliveryStateMachine.enqueuedForAnotherExecutor)
            if action != .discard { queue.append(event) }
            return action
        }
        if action == .schedule { scheduleTask() }
    }

    /// Whether a send handles its event on the sending thread when nobody else is handling.
    @inlinable
    var handlesHere: Bool {
        switch running {
        case .inline: true
        case .isolated: running.isMainActor && MainActorContext.isCurrent
        case .scheduled: false
        }
    }

    /// Sends the task that handles the queue on the relay's executor.
    ///
    /// The task is detached: it handles the values of every sender queued by the time it runs,
    /// so it takes none of the task-local values of the sender that happened to schedule it (its
    /// observation scope, its registration under way, its services). What a handler runs inside
    /// comes from where it was subscribed (`HandlerContext`), not from a sender.
    @usableFromInline
    func scheduleTask() {
        switch running {
        case .inline:
            preconditionFailure("Relay: an inline relay schedules no task")
        case .isolated(let actor):
            if actor === MainActor.shared {
                // Enqueued on the main actor at once, behind the main actor's jobs so far.
                Task.detached { @MainActor in self.scheduledTaskBegan() }
            } else if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
                // Starts on this thread and hops straight to the actor's executor: an actor with
                // an executor of its own (a dispatch queue, an event loop) hears the value without
                // a thread of Swift's concurrency pool, which may all be busy.
                Task.immediateDetached { await Self.runScheduledTask(of: self, on: actor) }
            } else {
                Task.detached { await Self.runScheduledTask(of: self, on: actor) }
            }
        case .scheduled(let schedule):
            schedule { self.scheduledTaskBegan() }
        }
    }

    /// The scheduled task, isolated to the relay's actor.
    @usableFromInline
    static func runScheduledTask(of relay: Relay, on actor: isolated any Actor) {
        relay.scheduledTaskBegan()
    }

    /// On the relay's executor: takes the role if events wait and nobody handles them, and handles
    /// them.
    @usableFromInline
    func scheduledTaskBegan() {
        guard delivery.apply(DeliveryStateMachine.scheduledTaskBegan) == .drain else { return }
        becomeHolder()
        finishHolding()
    }

    // MARK: Owners that order events by a lock of their own

    /// Queues `event` without handling it: for a caller that orders events by a lock of its own
    /// (a store queues a commit's notice under the store's lock, a router its announcements),
    /// then calls ``drain()`` after releasing it. Never calls the handler, so it is safe under any
    /// lock. Dropped once the relay is stopped.
    ///
    /// - Precondition: The relay is inline.
    @inlinable
    package func enqueue(_ event: Event) {
        queue.withLock { queue in
            if delivery.apply(DeliveryStateMachine.enqueuedForLater) != .discard { queue.append(event) }
        }
    }

    /// Handles what ``enqueue(_:)`` queued, unless events are being handled (then they will be).
    @inlinable
    package func drain() {
        guard delivery.apply(DeliveryStateMachine.claim) == .drain else { return }
        becomeHolder()
        finishHolding()
    }

    /// For an owner that orders events by a lock of its own, called under that lock: takes the
    /// role if nobody handles events, none wait and the relay is not stopped (one
    /// compare-and-exchange, no queue). Never calls the handler. Fast path for a store's
    /// notices, justified by "one ref write: cost of each further store" and "store 1,000 fields
    /// K=..., keypath write" (`Refs/one write to M=1000 stores`, `Store/1,000 fields`).
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
    @inlinable
    package func takeTheRoleIfIdle() -> Bool {
        guard delivery.sendWithoutLock() else { return false }
        becomeHolder()
        return true
    }

    /// Keeps the event for which ``takeTheRoleIfIdle()`` just took the role, until
    /// ``handleTaken(_:)``. Called by the thread that took it, still under its own lock.
    @inlinable
    package func keepTaken(_ event: consuming Event) {
        precondition(taken == nil, "Relay.keepTaken: an event is kept already")
        taken = consume event
    }

    /// Handles the event kept by ``keepTaken(_:)``, by calling `handle` with it (the owner's own
    /// way of doing what the relay's handler does with that event, called directly: no lock, no
    /// queue); then handles what was queued meanwhile, and gives the role up.
    ///
    /// `handle` is called even if the relay was stopped since the role was taken: the owner
    /// took the role and started handling the event under its own lock, and it finishes it (a
    /// stop waits for it). A store stops its relay in its `deinit`, when no commit can be running.
    @inlinable
    package func handleTaken(_ handle: (Event) -> Void) {
        guard let event = taken.take() else { preconditionFailure("Relay.handleTaken: no event was taken") }
        handle(event)
        finishHolding()
    }
}
