import ComposeMachinery
import Testing

/// The delivery protocol, driven synchronously: each test plays the steps of several threads in
/// one interleaving (each step is what a thread does under the owner's lock), and checks what
/// each thread is told to do. A small model (`Simulation`) keeps the queue and the values
/// delivered, so a test checks the outcome too: every value delivered once, in send order, by one
/// thread at a time, and the state idle at the end.
@Suite struct DeliveryStateMachineTests {
    typealias Machine = DeliveryStateMachine

    @Test func aSendWhileIdleDeliversAtOnceAndGivesTheRoleUp() {
        var state = DeliveryState.idle
        #expect(Machine.send(&state) == .deliverNow)
        #expect(state.description == "delivering")
        #expect(Machine.finish(&state) == .idle)
        #expect(state == .idle)
    }

    /// Two threads: A delivers, B sends meanwhile. B queues and returns at once; A delivers B's
    /// value before it gives the role up.
    @Test func concurrentSendersQueueBehindTheDeliveringThread() {
        var simulation = Simulation()
        simulation.send("a", by: "A")                // A takes the role and starts delivering
        simulation.send("b", by: "B")                // B finds A delivering: queues, and is done
        #expect(simulation.lastAction(of: "B") == .done)
        simulation.finishDelivery(by: "A")          // A finishes "a", then takes "b"
        #expect(simulation.log == ["a by A", "b by A"])
        #expect(simulation.state == .idle)
    }

    /// A handler of A sends again (a reentrant send, on A's thread): queued, delivered by A
    /// right after the current value, never nested.
    @Test func aReentrantSendIsDeliveredAfterTheCurrentValue() {
        var simulation = Simulation()
        simulation.send("outer", by: "A")
        simulation.send("inner", by: "A")            // from the handler: somebody (A) delivers
        #expect(simulation.log == ["outer by A"])
        simulation.finishDelivery(by: "A")
        #expect(simulation.log == ["outer by A", "inner by A"])
        #expect(simulation.state == .idle)
    }

    /// A store queues under its own lock (for commit order) and claims after: a sender that
    /// arrives in between queues behind the commit's value, so order is kept, and whoever
    /// claims first delivers both.
    @Test func valuesQueuedForLaterKeepTheirOrderAgainstASender() {
        var simulation = Simulation()
        simulation.enqueueForLater("commit 1", by: "S")
        simulation.send("sent", by: "B")             // values wait: B queues behind them, and drains
        #expect(simulation.lastAction(of: "B") == .drain)
        simulation.finishDelivery(by: "B")
        simulation.claim(by: "S")                   // nothing left: S is done
        #expect(simulation.lastAction(of: "S") == .done)
        #expect(simulation.log == ["commit 1 by B", "sent by B"])
        #expect(simulation.state == .idle)
    }

    @Test func claimingWithNothingQueuedOrSomebodyDeliveringDoesNothing() {
        var idle = DeliveryState.idle
        #expect(Machine.claim(&idle) == .done)
        var busy = DeliveryState(isDelivering: true, hasPending: true)
        #expect(Machine.claim(&busy) == .done)
        var waiting = DeliveryState(isDelivering: false, hasPending: true)
        #expect(Machine.claim(&waiting) == .drain)
        #expect(waiting.isDelivering)
    }

    /// A subscriber that asks for the current value gets it at once when nothing is delivering,
    /// and queued first otherwise.
    @Test func aReplayIsDeliveredAtOnceOrQueued() {
        var idle = DeliveryState.idle
        #expect(Machine.replay(&idle) == .deliverNow)
        var busy = DeliveryState(isDelivering: true)
        #expect(Machine.replay(&busy) == .enqueue)
        #expect(busy.hasPending)
    }

    /// A value queued while nobody delivers (`enqueued` with the role free) makes the queuing
    /// thread the deliverer: nothing is ever left in the queue with nobody to deliver it.
    @Test func aValueQueuedWithTheRoleFreeIsDeliveredByTheThreadThatQueuedIt() {
        var state = DeliveryState(isDelivering: false, hasPending: true)
        #expect(Machine.send(&state) == .enqueue)
        #expect(Machine.enqueued(&state) == .drain)
        #expect(state.isDelivering)
    }

    /// Every interleaving of three senders sending two values each (a sender told to deliver,
    /// or to drain, finishes before it sends again): every value is delivered exactly once,
    /// each sender's in its order, by one thread at a time, and the state ends idle.
    @Test func everyInterleavingOfThreeSendersDeliversEachValueOnce() {
        let senders = ["A", "B", "C"]
        var interleavings = 0
        func explore(_ simulation: Simulation, _ remaining: [String: Int]) {
            let ready = senders.filter { (remaining[$0] ?? 0) > 0 }
            if ready.isEmpty {
                var simulation = simulation
                for sender in senders { simulation.finishDelivery(by: sender) }
                #expect(simulation.state == .idle)
                let values = simulation.delivered
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
                next.finishDelivery(by: sender)
                next.send("\(sender)\(index)", by: sender)
                explore(next, left)
            }
        }
        explore(Simulation(), ["A": 2, "B": 2, "C": 2])
        #expect(interleavings == 90)
    }
}

/// The state and what a driver keeps beside it, with threads named by strings; each call plays
/// one thread's step, under the lock.
struct Simulation {
    typealias Machine = DeliveryStateMachine

    private(set) var state = DeliveryState.idle
    private var queue: [String] = []
    private(set) var log: [String] = []
    private var holder: String?
    private var last: [String: DeliveryAction] = [:]

    var delivered: [String] {
        log.map { String($0.split(separator: " ")[0]) }
    }

    func lastAction(of thread: String) -> DeliveryAction? {
        last[thread]
    }

    mutating func send(_ value: String, by thread: String) {
        switch Machine.send(&state) {
        case .deliverNow:
            take(by: thread)
            log.append("\(value) by \(thread)")
            last[thread] = .deliverNow
        case .enqueue:
            queue.append(value)
            let then = Machine.enqueued(&state)
            if then == .drain { take(by: thread) }
            last[thread] = then
        case let other:
            preconditionFailure("\(other)")
        }
    }

    mutating func enqueueForLater(_ value: String, by thread: String) {
        queue.append(value)
        Machine.enqueuedForLater(&state)
        last[thread] = .enqueue
    }

    mutating func claim(by thread: String) {
        let action = Machine.claim(&state)
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
            switch Machine.finish(&state) {
            case .takeNext:
                let value = queue.removeFirst()
                Machine.tookNext(&state, queueIsEmpty: queue.isEmpty)
                log.append("\(value) by \(thread)")
            case .idle:
                holder = nil
                return
            case let other:
                preconditionFailure("\(other)")
            }
        }
    }

    private mutating func take(by thread: String) {
        precondition(holder == nil, "two threads hold the role: \(holder!) and \(thread)")
        holder = thread
    }
}
