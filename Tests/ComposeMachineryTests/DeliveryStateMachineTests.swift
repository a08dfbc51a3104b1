import ComposeMachinery
import Testing

/// The delivery protocol, driven synchronously: each test plays the transitions of several
/// threads in one interleaving, as the word would see them, and checks what each thread is told
/// to do. A small model (`Simulation`) keeps the queue and the values delivered, so a test can
/// check the outcome too: every value delivered once, in send order, by one thread at a time.
@Suite struct DeliveryStateMachineTests {
    typealias Machine = DeliveryStateMachine

    @Test func aSendOnAnIdleWordDeliversAtOnceAndGivesTheRoleUp() {
        let (locked, action) = Machine.send(.idle)
        #expect(action == .deliverNow)
        #expect(locked.isLocked && locked.isDelivering)
        let delivering = Machine.startedDelivering(locked)
        #expect(delivering.description == "delivering")
        let (after, finished) = Machine.finish(delivering)
        #expect(finished == .idle)
        #expect(after == .idle)
    }

    @Test func aSenderThatFindsTheLockHeldWaitsAndChangesNothing() {
        let held = DeliveryState.idle.with(.locked)
        #expect(Machine.send(held) == (held, .wait))
        #expect(Machine.claim(held) == (held, .wait))
        #expect(Machine.lock(held) == (held, .wait))
        let delivering = held.with(.delivering)
        #expect(Machine.finish(delivering) == (delivering, .wait))
    }

    /// Two threads: A delivers, B sends meanwhile. B queues and returns at once; A delivers B's
    /// value before it gives the role up.
    @Test func concurrentSendersQueueBehindTheDeliveringThread() {
        var simulation = Simulation()
        simulation.send("a", by: "A")                // A takes the role and starts delivering
        simulation.send("b", by: "B")                // B finds A delivering: queues, and is done
        #expect(simulation.state(of: "B") == .done)
        simulation.finishDelivery(by: "A")          // A finishes "a", then takes "b"
        #expect(simulation.delivered.map { "\($0.value) by \($0.by)" } == ["a by A", "b by A"])
        #expect(simulation.word == .idle)
    }

    /// A handler of A sends again (a reentrant send, on A's thread): queued, delivered by A
    /// right after the current value, never nested.
    @Test func aReentrantSendIsDeliveredAfterTheCurrentValue() {
        var simulation = Simulation()
        simulation.send("outer", by: "A")
        simulation.send("inner", by: "A")            // from the handler: the word says "delivering"
        #expect(simulation.delivered.map(\.value) == ["outer"])
        simulation.finishDelivery(by: "A")
        #expect(simulation.delivered.map(\.value) == ["outer", "inner"])
        #expect(simulation.word == .idle)
    }

    /// A store queues under its own lock (for commit order) and claims after: a sender that
    /// arrives in between queues behind the commit's value, so order is kept, and whoever
    /// claims first delivers both.
    @Test func valuesQueuedForLaterKeepTheirOrderAgainstASender() {
        var simulation = Simulation()
        simulation.enqueueForLater("commit 1", by: "S")
        simulation.send("sent", by: "B")             // the word says "pending": B queues, and drains
        #expect(simulation.state(of: "B") == .drain)
        simulation.finishDelivery(by: "B")
        simulation.claim(by: "S")                   // nothing left: S is done
        #expect(simulation.state(of: "S") == .done)
        #expect(simulation.delivered.map { "\($0.value) by \($0.by)" } == ["commit 1 by B", "sent by B"])
        #expect(simulation.word == .idle)
    }

    @Test func claimingWithNothingQueuedOrSomebodyDeliveringDoesNothing() {
        #expect(Machine.claim(.idle) == (.idle, .done))
        let delivering = DeliveryState.idle.with(.delivering).with(.pending)
        #expect(Machine.claim(delivering) == (delivering, .done))
        let waiting = DeliveryState.idle.with(.pending)
        #expect(Machine.claim(waiting) == (waiting.with(.delivering), .drain))
    }

    /// Cancelling (or subscribing) during a delivery takes the lock, not the role: the delivery
    /// goes on, and the word comes back as it was.
    @Test func aCancellationDuringADeliveryLeavesTheDeliveryAlone() {
        let delivering = Machine.startedDelivering(Machine.send(.idle).0)
        let (locked, action) = Machine.lock(delivering)
        #expect(action == .locked)
        #expect(locked.isDelivering && locked.isLocked)
        #expect(Machine.unlocked(locked) == delivering)
        // The delivering thread, finishing while the lock is held, waits.
        #expect(Machine.finish(locked).1 == .wait)
        #expect(Machine.finish(Machine.unlocked(locked)).1 == .idle)
    }

    /// A subscriber that asks for the current value gets it at once when nothing is delivering,
    /// and queued first otherwise.
    @Test func aReplayIsDeliveredAtOnceOrQueued() {
        let (idleLocked, _) = Machine.lock(.idle)
        #expect(Machine.replay(idleLocked).1 == .deliverNow)
        let (busyLocked, _) = Machine.lock(DeliveryState.idle.with(.delivering))
        let (queued, action) = Machine.replay(busyLocked)
        #expect(action == .enqueue)
        #expect(queued.hasPending)
    }

    /// Every interleaving of three senders' steps (each: arrive, then finish what it was told
    /// to do): every value is delivered exactly once, values of one sender in its order, by one
    /// thread at a time, and the word ends idle.
    @Test func everyInterleavingOfThreeSendersDeliversEachValueOnce() {
        let senders = ["A", "B", "C"]
        var interleavings = 0
        func explore(_ simulation: Simulation, _ remaining: [String: Int]) {
            let ready = senders.filter { (remaining[$0] ?? 0) > 0 }
            if ready.isEmpty {
                var simulation = simulation
                for sender in senders { simulation.finishDelivery(by: sender) }
                #expect(simulation.word == .idle)
                let values = simulation.delivered.map(\.value)
                #expect(values.sorted() == ["A0", "A1", "B0", "B1", "C0", "C1"])
                for sender in senders {
                    #expect(values.filter { $0.hasPrefix(sender) } == [sender + "0", sender + "1"])
                }
                interleavings += 1
                return
            }
            for sender in ready {
                var next = simulation
                var left = remaining
                let index = 2 - left[sender]!
                left[sender]! -= 1
                // A sender that was told to deliver (or drain) finishes before it sends again.
                next.finishDelivery(by: sender)
                next.send("\(sender)\(index)", by: sender)
                explore(next, left)
            }
        }
        explore(Simulation(), ["A": 2, "B": 2, "C": 2])
        #expect(interleavings == 90)
    }
}

/// The word and what the driver keeps beside it, with threads named by strings; each call
/// plays one thread's step.
struct Simulation {
    typealias Machine = DeliveryStateMachine

    private(set) var word = DeliveryState.idle
    private var queue: [String] = []
    private(set) var delivered: [(value: String, by: String)] = []
    private var holder: String?
    private var last: [String: DeliveryAction] = [:]

    func state(of thread: String) -> DeliveryAction? {
        last[thread]
    }

    mutating func send(_ value: String, by thread: String) {
        let (next, action) = Machine.send(word)
        precondition(action != .wait, "nobody holds the lock between steps")
        word = next
        switch action {
        case .deliverNow:
            take(by: thread)
            word = Machine.startedDelivering(word)
            delivered.append((value, thread))
            last[thread] = .deliverNow
        case .enqueue:
            queue.append(value)
            let (after, then) = Machine.enqueued(word)
            word = after
            if then == .drain { take(by: thread) }
            last[thread] = then
        default:
            preconditionFailure("\(action)")
        }
    }

    mutating func enqueueForLater(_ value: String, by thread: String) {
        word = Machine.lock(word).0
        queue.append(value)
        word = Machine.enqueuedForLater(word)
        last[thread] = .enqueue
    }

    mutating func claim(by thread: String) {
        let (next, action) = Machine.claim(word)
        word = next
        last[thread] = action
        if action == .drain {
            take(by: thread)
            finishDelivery(by: thread)
        }
    }

    /// If `thread` holds the role: delivers the queue, then gives the role up.
    mutating func finishDelivery(by thread: String) {
        guard holder == thread else { return }
        while true {
            let (next, action) = Machine.finish(word)
            word = next
            switch action {
            case .takeNext:
                let value = queue.removeFirst()
                word = Machine.tookNext(word, queueIsEmpty: queue.isEmpty)
                delivered.append((value, thread))
            case .idle:
                holder = nil
                return
            default:
                preconditionFailure("\(action)")
            }
        }
    }

    private mutating func take(by thread: String) {
        precondition(holder == nil, "two threads hold the role: \(holder!) and \(thread)")
        holder = thread
    }
}
