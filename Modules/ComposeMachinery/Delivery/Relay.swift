import DequeModule
import Synchronization

/// Compose's serial executor: events sent from any thread are handled by one handler, one at a
/// time, in the order they were sent.
///
/// Every operator with several inputs (`merge`, `debounce`, ...) funnels them through one; a
/// handler written in an actor's code (a main-actor app's) is called through one running on that
/// actor; the store notifies its observers through one, a component host applies every change of
/// its tree through one, a router announces its changes through one, and autosave decides and
/// saves through two. Its protocol is the emitters' (``DeliveryStateMachine``), in one of three
/// places (``Running``):
///
/// - **Inline** (the default): the thread that sends while nothing is being handled handles the
///   event at once, on its own stack; an event sent meanwhile (by another thread, or by the
///   handler itself) is queued and handled by that thread, in order, before its `send` returns.
///   No thread waits for another.
/// - **On an actor**: events are handled on the actor. Sent on the main actor to a relay running
///   there, an event is handled at once, as inline (after the events queued before it); sent
///   anywhere else, it is queued, and one task at a time, on the actor, handles the queue.
/// - **Scheduled**: events are handled on a thread the relay's `schedule` provides (a dispatch
///   queue), one task at a time; the sender only queues.
///
/// ## Guarantees
/// - The handler is never called concurrently with itself, and never under a lock.
/// - Events are handled in the order they were sent (the order of the relay's lock); none is lost
///   until ``stop()``.
/// - **Once ``stop()`` has returned, the handler is not called again.** A stop made while another
///   thread is handling an event waits until that thread is done with it (so the handler must not
///   wait for the thread that stops it); a stop made by the handler itself returns at once, and
///   the call in progress is the last. So does a stop whose wait would close a ring of stops
///   waiting for each other's handlers (two handlers that stop each other's relays at once).
///   The handler is released once nobody can be calling it.
///
/// The thread holding the role takes the whole queue at once (``DeliveryStateMachine/tookAll(_:count:)``)
/// and handles it without the lock, so threads that queue in a tight loop cannot starve it: each
/// time it gets the lock it takes everything they queued. It swaps the queue with a second one it
/// keeps for the purpose, so a relay in use allocates nothing per event.
@usableFromInline
package final class Relay<Event: Sendable>: @unchecked Sendable {  // Queue under `queue`'s lock; the rest below.
    /// Where a relay handles events.
    @usableFromInline
    package enum Running: Sendable {
        /// On the sending thread, or the thread handling events at the moment.
        case inline
        /// On the actor: at once when sent on it (for the main actor, whose presence can be
        /// asked), otherwise on a task there.
        case isolated(any Actor)
        /// On whatever thread `schedule` runs the work it is given (exactly once).
        case scheduled(@Sendable (_ work: @escaping @Sendable () -> Void) -> Void)

        /// On the main actor.
        package static var mainActor: Running { .isolated(MainActor.shared) }

        /// The main actor, if that is where events are handled.
        @inlinable
        package var isMainActor: Bool {
            if case .isolated(let actor) = self { return actor === MainActor.shared }
            return false
        }
    }

    /// The handler, in a struct so that taking it out of a generic function moves a struct: a
    /// bare closure returned through a generic result is re-abstracted, and the thunk costs an
    /// allocation per event.
    @usableFromInline
    struct Handler {
        @usableFromInline let handle: @Sendable (Event) -> Void

        @inlinable
        init(_ handle: @escaping @Sendable (Event) -> Void) {
            self.handle = handle
        }
    }

    /// Events not handled yet, in the order they were sent.
    @usableFromInline let queue = LockedState(Deque<Event>())
    /// The delivery role, the number of events in `queue`, whether the relay was stopped and
    /// whether a task is on its way; changed by the transitions of ``DeliveryStateMachine`` only.
    @usableFromInline let delivery = DeliveryWord()
    /// Set by ``start(_:)`` before the relay is shared, read by the holder of the role without a
    /// lock (a send that takes the role from idle calls it at once), and released by the thread
    /// that finds the relay stopped with nobody holding the role (see ``releaseHandler()``).
    @exclusivity(unchecked) @usableFromInline nonisolated(unsafe) var handler: Handler?
    /// The events the holder of the role took from the queue and has not handled yet. Only the
    /// holder touches it (the role is handed from one holder to the next through `delivery`'s
    /// sequentially consistent transitions, which order their accesses); empty, with its
    /// capacity kept, between batches. Only one thread can reach it at a time, so the dynamic
    /// exclusivity check a class's `var` gets (two runtime calls per access) is off.
    @exclusivity(unchecked) @usableFromInline nonisolated(unsafe) var inHand: Deque<Event> = []
    /// The event ``keepTaken(_:)`` keeps for the owner that took the role, until
    /// ``handleTaken(_:)`` hands it back. Only the holder of the role touches it, as ``inHand``.
    @exclusivity(unchecked) @usableFromInline nonisolated(unsafe) var taken: Event?
    /// The thread holding the role, or 0: written by the holder (its own identity after taking
    /// the role, 0 before giving it up), so a thread that reads its own identity here holds it.
    @usableFromInline let holderThread = Atomic<UInt>(0)
    @usableFromInline package let running: Running

    /// - Parameter running: Where events are handled.
    @usableFromInline
    package init(running: Running = .inline) {
        self.running = running
    }

    /// Sets the handler. Call it once, before the relay is shared.
    @usableFromInline
    package func start(_ handler: @escaping @Sendable (Event) -> Void) {
        precondition(self.handler == nil, "Relay.start called twice")
        self.handler = Handler(handler)
    }

    /// Stops handling events, for good: once it has returned, the handler is not called again,
    /// and events sent afterwards are dropped. Idempotent.
    ///
    /// If another thread is handling an event, waits until it is done with it. Called by the
    /// handler itself, returns at once; the call in progress is the last. So it does when that
    /// thread's handler is itself waiting, in a stop, for the current thread (two handlers
    /// stopping each other's relays at once): the first of them to stop waits, the second does
    /// not, and the call in progress of the second's relay is its last.
    @usableFromInline
    package func stop() {
        let holderIsCurrentThread = holderThread.load(ordering: .relaxed) == ThreadIdentity.current
        var dropped: (Deque<Event>, Handler?) = ([], nil)
        let action = queue.withLock { queue in
            let action = delivery.apply { DeliveryStateMachine.stop(&$0, holderIsCurrentThread: holderIsCurrentThread) }
            if action == .dropEverything { dropped = takeEverything(&queue) }
            return action
        }
        if action == .waitForTheHolder {
            RelayStops.waitUntil(holder: { self.holderThread.load(ordering: .relaxed) }) {
                !self.delivery.state.isDelivering
            }
        }
        // Otherwise nobody holds the role (dropped above), or the current thread does and drops
        // the rest when it finishes.
        _ = dropped  // released here, outside the lock: a deinit is user code
    }

    /// Whether ``stop()`` has been called: a handler handing several values on in one call
    /// looks here between them, so that one that stops its own relay hears none of the rest.
    package var isStopped: Bool {
        delivery.state.isStopped
    }

    /// Whether the relay is stopped and nobody holds its role: no handler call is in progress
    /// or can start, so a ``stop()`` now returns at once.
    package var isStoppedAndIdle: Bool {
        let state = delivery.state
        return state.isStopped && !state.isDelivering
    }

    /// Whether the current thread holds the relay's role: it is handling its events.
    package var isHandlingOnCurrentThread: Bool {
        holderThread.load(ordering: .relaxed) == ThreadIdentity.current
    }

    /// The number of events queued and not yet taken by the thread handling events.
    package var backlog: Int {
        queue.withLock { $0.count }
    }

    /// Takes the waiting events and the handler out of the relay, once it is stopped and nobody
    /// holds the role (so nobody can be calling or reading the handler), for the caller to release
    /// after unlocking. Called under `queue`'s lock, so that the two threads that may do it (a
    /// stop that found nobody holding the role, and a holder that found the relay stopped) do it
    /// one after the other.
    @usableFromInline
    func takeEverything(_ queue: inout Deque<Event>) -> (Deque<Event>, Handler?) {
        var events: Deque<Event> = []
        swap(&events, &queue)
        var released: Handler? = nil
        swap(&released, &handler)
        return (events, released)
    }
}

/// Where ``Relay/stop()`` waits for a holder to give the role up: one condition for every relay,
/// since waiting is rare (a stop racing a delivery on another thread) and brief (one handler
/// call).
///
/// It also keeps which thread each waiting stop waits for, so that stops cannot wait for each
/// other in a ring: handlers on two threads that stop each other's relays at once (two handlers
/// on two actors ending one scope) would otherwise wait forever. A stop that would close such a
/// ring does not wait: the call in progress it would wait for is the relay's last, as when the
/// handler stops its own relay (that call is waiting, through the ring, for the stopping thread).
@usableFromInline
enum RelayStops {
    private final class Waits: @unchecked Sendable {  // `waitingFor` is guarded by `condition`.
        let condition = ConditionLock()
        /// The threads in a stop's wait, each with what reads the thread holding the role it
        /// waits for (0 once nobody holds it): read live, since a holder may give the role up
        /// before the waiting thread wakes.
        var waitingFor: [UInt: () -> UInt] = [:]
    }

    private static let waits = Waits()

    /// Waits until `isDone`, which turns true when a holder gives the role up after
    /// ``wakeEveryone()``; returns at once if `holder()`, the thread holding the role, waits
    /// for the current thread through the waits of other stops.
    static func waitUntil(holder: @escaping () -> UInt, _ isDone: () -> Bool) {
        let me = ThreadIdentity.current
        waits.condition.withLock {
            while !isDone() {
                if closesARing(from: holder(), to: me) { break }
                waits.waitingFor[me] = holder
                waits.condition.wait()
                waits.waitingFor[me] = nil
            }
        }
    }

    /// Whether `start` waits, directly or through other waiting threads, for `thread`.
    private static func closesARing(from start: UInt, to thread: UInt) -> Bool {
        var next = start
        for _ in 0...waits.waitingFor.count {
            if next == thread { return true }
            guard next != 0, let holder = waits.waitingFor[next] else { return false }
            next = holder()
        }
        return false
    }

    /// Called by a holder that gave the role up on finding its relay stopped.
    @usableFromInline
    static func wakeEveryone() {
        waits.condition.withLock { waits.condition.broadcast() }
    }
}
