import ComposeMachinery
import Testing

/// The delivery protocol, driven synchronously.
///
/// The first tests play single transitions. The others run ``DeliveryModel``: threads, written as
/// the steps an emitter's threads take (a send under the lock, giving the role up without it, one
/// handler call, ...), explored in *every* interleaving of those steps, with the queue, the
/// subscribers and their handlers modelled beside the machine. Each interleaving is checked for
/// what the emitters promise: one thread at a time holds the role; every value reaches every
/// subscriber once, in the same order for all, each sender's values in send order; a reentrant
/// send is queued, never nested; a subscriber cancelled during a delivery is not called for the
/// rest of it, and no send that starts after a cancellation reaches it; at the end nobody holds
/// the role and nothing waits.
@Suite struct DeliveryStateMachineTests {
    typealias Machine = DeliveryStateMachine

    // MARK: Transitions

    @Test func aSendWhileIdleDeliversAtOnceAndGivesTheRoleUp() {
        var state = DeliveryState.idle
        #expect(Machine.send(&state) == .deliverNow)
        #expect(state.description == "delivering")
        #expect(Machine.finish(&state) == .idle)
        #expect(state == .idle)
    }

    @Test func aSendWhileDeliveringIsCountedAndQueued() {
        var state = DeliveryState(isDelivering: true)
        #expect(Machine.send(&state) == .enqueue)
        #expect(state == DeliveryState(isDelivering: true, pending: 1))
        #expect(Machine.finish(&state) == .takeNext)
        #expect(Machine.tookNext(&state) == .deliverNow)
        #expect(Machine.finish(&state) == .idle)
    }

    /// A value queued for later (a store's notice) is not delivered until claimed, and a sender
    /// that arrives meanwhile queues behind it and takes the role: nothing overtakes it.
    @Test func aSendBehindValuesQueuedForLaterQueuesAndTakesTheRole() {
        var state = DeliveryState.idle
        #expect(Machine.enqueuedForLater(&state) == .done)
        #expect(state.description == "pending 1")
        #expect(Machine.send(&state) == .drain)
        #expect(state == DeliveryState(isDelivering: true, pending: 2))
    }

    @Test func claimingWithNothingQueuedOrSomebodyDeliveringDoesNothing() {
        var idle = DeliveryState.idle
        #expect(Machine.claim(&idle) == .done)
        var busy = DeliveryState(isDelivering: true, pending: 1)
        #expect(Machine.claim(&busy) == .done)
        var waiting = DeliveryState(pending: 1)
        #expect(Machine.claim(&waiting) == .drain)
        #expect(waiting.isDelivering)
    }

    /// The word's packing keeps the role and the count apart at any count.
    @Test func theStateKeepsTheRoleAndTheCountApart() {
        var state = DeliveryState(isDelivering: true, pending: Int(UInt32.max))
        state.pending -= 1
        #expect(state.isDelivering)
        state.isDelivering = false
        #expect(state.pending == Int(UInt32.max) - 1)
    }

    /// The state keeps the snapshot's staleness apart from the role and the count.
    @Test func theStateKeepsTheSnapshotApart() {
        var state = DeliveryState(isDelivering: true, pending: 3, snapshotIsStale: true)
        #expect(state.description == "delivering, pending 3, snapshot stale")
        state.pending = 0
        state.isDelivering = false
        #expect(state.snapshotIsStale && state != .idle)
        state.snapshotIsStale = false
        #expect(state == .idle)
    }

    /// A send without the lock takes the role from idle only; from any other state it changes
    /// nothing and goes to the lock.
    @Test func aSendWithoutTheLockTakesTheRoleFromIdleOnly() {
        var state = DeliveryState.idle
        #expect(Machine.sendWithoutLock(&state) == .deliverNow)
        #expect(state == DeliveryState(isDelivering: true))
        for other in [
            DeliveryState(isDelivering: true),
            DeliveryState(pending: 1),
            DeliveryState(snapshotIsStale: true),
            DeliveryState(isDelivering: true, pending: 2, snapshotIsStale: true),
        ] {
            var state = other
            #expect(Machine.sendWithoutLock(&state) == .takeTheLock)
            #expect(state == other)
        }
    }

    /// Changing the handlers marks the snapshot stale, and says whether a delivery may be reading
    /// them; only a holder taking a value in hand under the lock marks it fresh again.
    @Test func changingTheHandlersMarksTheSnapshotStaleUntilAHolderPublishesIt() {
        var state = DeliveryState.idle
        #expect(Machine.handlersWillChange(&state) == .writeInPlace)
        #expect(state == DeliveryState(snapshotIsStale: true))
        #expect(Machine.sendWithoutLock(&state) == .takeTheLock)
        #expect(Machine.send(&state) == .deliverNow)  // publishes
        #expect(state == DeliveryState(isDelivering: true))
        #expect(Machine.handlersWillChange(&state) == .writeACopy)
        #expect(Machine.send(&state) == .enqueue)
        #expect(Machine.finish(&state) == .takeNext)
        #expect(state == DeliveryState(isDelivering: true, pending: 1, snapshotIsStale: true))
        #expect(Machine.tookNext(&state) == .deliverNow)  // publishes
        #expect(Machine.handlersWillChange(&state) == .writeACopy)
        #expect(Machine.finish(&state) == .idle)
        #expect(state == DeliveryState(snapshotIsStale: true))  // giving up publishes nothing
        #expect(Machine.enqueuedForLater(&state) == .done)
        #expect(Machine.send(&state) == .drain)  // takes the role, publishes nothing yet
        #expect(state.snapshotIsStale)
    }

    /// The word's lock-free send is the transition, as one compare-and-exchange.
    @Test func theWordSendsWithoutTheLockFromIdleOnly() {
        let word = DeliveryWord()
        var took = word.sendWithoutLock()
        var state = word.state
        #expect(took && state == DeliveryState(isDelivering: true))
        took = word.sendWithoutLock()
        #expect(!took)
        #expect(word.apply(Machine.handlersWillChange) == .writeACopy)
        #expect(word.apply(Machine.finish) == .idle)
        took = word.sendWithoutLock()
        state = word.state
        #expect(!took && state == DeliveryState(snapshotIsStale: true))
    }

    /// The atomic word applies the same transitions.
    @Test func theWordAppliesTransitions() {
        let word = DeliveryWord()
        #expect(word.apply(Machine.send) == .deliverNow)
        #expect(word.apply(Machine.send) == .enqueue)
        let middle = word.state
        #expect(middle == DeliveryState(isDelivering: true, pending: 1))
        #expect(word.apply(Machine.claim) == .done)
        #expect(word.apply(Machine.finish) == .takeNext)
        #expect(word.apply(Machine.tookNext) == .deliverNow)
        #expect(word.apply(Machine.finish) == .idle)
        let end = word.state
        let delivering = word.isDelivering
        #expect(end == .idle)
        #expect(!delivering)
    }

    /// Giving the role up without loading the word first is `finish` from "delivering, nothing
    /// waits", and refuses every other state, leaving it as it was.
    @Test func givingUpIfNothingWaitsIsFinishFromItsCommonestState() {
        let word = DeliveryWord()
        // Read into locals first: `#expect` cannot take a noncopyable word apart.
        var gaveUp = word.giveUpIfNothingWaits()
        var state = word.state
        #expect(!gaveUp && state == .idle)  // nobody holds the role
        #expect(word.apply(Machine.send) == .deliverNow)
        #expect(word.apply(Machine.send) == .enqueue)
        gaveUp = word.giveUpIfNothingWaits()
        state = word.state
        #expect(!gaveUp && state == DeliveryState(isDelivering: true, pending: 1))  // the holder keeps it
        #expect(word.apply(Machine.finish) == .takeNext)
        #expect(word.apply(Machine.tookNext) == .deliverNow)
        gaveUp = word.giveUpIfNothingWaits()
        state = word.state
        #expect(gaveUp && state == .idle)
        #expect(word.apply(Machine.enqueuedForLater) == .done)
        gaveUp = word.giveUpIfNothingWaits()
        state = word.state
        #expect(!gaveUp && state == DeliveryState(pending: 1))  // values wait for a claim
    }

    // MARK: Every interleaving
    //
    // Each test expects the exact number of distinct interleavings of its threads' steps: it
    // shows that the exploration is exhaustive, and changes only when the protocol's steps do.

    /// Three threads send at once, to two subscribers.
    @Test func concurrentSenders() {
        let model = DeliveryModel(
            threads: ["A": [.send("a")], "B": [.send("b")], "C": [.send("c")]],
            subscribers: 2
        )
        let report = model.exploreEveryInterleaving()
        #expect(report.failures == [])
        #expect(report.interleavings == 150)
    }

    /// Two threads send two values each: each thread's values arrive in its order.
    @Test func concurrentSendersKeepTheirOwnOrder() {
        let model = DeliveryModel(
            threads: ["A": [.send("a1"), .send("a2")], "B": [.send("b1"), .send("b2")]],
            subscribers: 1
        )
        let report = model.exploreEveryInterleaving()
        #expect(report.failures == [])
        #expect(report.interleavings == 82)
    }

    /// A handler sends again while another thread sends: the reentrant value is queued (never
    /// delivered inside the handler that sent it) and delivered once.
    @Test func reentrantSends() {
        var model = DeliveryModel(
            threads: ["A": [.send("a")], "B": [.send("b")]],
            subscribers: 2
        )
        model.handlerOfFirstSubscriberSends = ["a": "a'", "b": "b'"]
        let report = model.exploreEveryInterleaving()
        #expect(report.failures == [])
        #expect(report.interleavings == 18)
    }

    /// A store queues its commits under its own lock and claims them after: a plain sender
    /// arriving in between never overtakes a commit queued before it, and nothing is stranded.
    @Test func valuesQueuedForLaterAndClaimed() {
        let model = DeliveryModel(
            threads: [
                "S": [.enqueueForLater("s1"), .claim, .enqueueForLater("s2"), .claim],
                "B": [.send("b")],
            ],
            subscribers: 1
        )
        let report = model.exploreEveryInterleaving()
        #expect(report.failures == [])
        #expect(report.interleavings == 400)
    }

    /// Two stores and a sender.
    @Test func valuesQueuedForLaterByTwoStoresAndASender() {
        let model = DeliveryModel(
            threads: [
                "S": [.enqueueForLater("s1"), .claim],
                "B": [.send("b")],
                "T": [.enqueueForLater("t"), .claim],
            ],
            subscribers: 1
        )
        let report = model.exploreEveryInterleaving()
        #expect(report.failures == [])
        #expect(report.interleavings == 4504)
    }

    /// A thread cancels a subscriber while two others send, and a handler cancels the other
    /// subscriber during its delivery.
    @Test func cancellationDuringDelivery() {
        var model = DeliveryModel(
            threads: ["A": [.send("a")], "B": [.send("b")], "C": [.cancel(1)]],
            subscribers: 3
        )
        model.handlerOfFirstSubscriberCancels = ["a": 2]
        let report = model.exploreEveryInterleaving()
        #expect(report.failures == [])
        #expect(report.interleavings == 133)
    }

    /// Sends without the lock race sends under it and a reentrant send: the lock-free ones take
    /// the role from idle or fall back to the lock, and order and delivery hold as before.
    @Test func sendsWithoutTheLockAmongSendsUnderIt() {
        var model = DeliveryModel(
            threads: ["A": [.sendWithoutLock("a")], "B": [.send("b")], "C": [.sendWithoutLock("c")]],
            subscribers: 2
        )
        model.handlerOfFirstSubscriberSends = ["a": "a'"]
        let report = model.exploreEveryInterleaving()
        #expect(report.failures == [])
        #expect(report.interleavings == 2_726)
    }

    /// A thread subscribes and cancels while others send without the lock: a send that starts
    /// after a subscription reaches it (the snapshot was marked stale), and none that starts
    /// after a cancellation does.
    @Test func subscribingAndCancellingWhileSendingWithoutTheLock() {
        let model = DeliveryModel(
            threads: [
                "A": [.sendWithoutLock("a")],
                "B": [.sendWithoutLock("b")],
                "R": [.subscribe(1), .cancel(0)],
            ],
            subscribers: 1,
            lateSubscribers: 1
        )
        let report = model.exploreEveryInterleaving()
        #expect(report.failures == [])
        #expect(report.interleavings == 818)
    }

    /// The model catches a registry change that leaves the snapshot fresh: a send without the
    /// lock delivers to the old handlers, and the new subscriber misses it.
    @Test func theModelCatchesASendToAStaleSnapshot() {
        var model = DeliveryModel(
            threads: ["A": [.sendWithoutLock("a")], "R": [.subscribe(1)]],
            subscribers: 1,
            lateSubscribers: 1
        )
        model.handlersWillChange = { state in state.isDelivering ? .writeACopy : .writeInPlace }
        let report = model.exploreEveryInterleaving()
        #expect(report.failures.contains { $0.contains("subscriber 1 never got a") })
    }

    /// A relay's way: the holder takes every waiting value at once, then delivers them one by one
    /// without the lock.
    @Test(arguments: [false, true])
    func takingEveryWaitingValueAtOnce(withAStore: Bool) {
        var model = DeliveryModel(
            threads: withAStore
                ? ["S": [.enqueueForLater("s1"), .claim], "B": [.send("b")], "T": [.enqueueForLater("t"), .claim]]
                : ["A": [.send("a")], "B": [.send("b")], "C": [.send("c")]],
            subscribers: withAStore ? 1 : 2
        )
        model.takesEverythingWaiting = true
        let report = model.exploreEveryInterleaving()
        #expect(report.failures == [])
        #expect(report.interleavings > 100)
    }

    /// A store's way with its relay: commits post their notices under the store's lock, a
    /// handler posts one more while it is called, and a refresh is queued without that lock and
    /// claimed. A post takes the role only from idle, so it never overtakes a value queued
    /// before it, and one that finds the role taken (its own handler's, too) is queued and
    /// delivered by the holder.
    @Test(arguments: [false, true])
    func postsUnderTheOwnersLockAmongValuesQueuedForLater(fromTwoThreads: Bool) {
        var model = DeliveryModel(
            threads: fromTwoThreads
                ? ["S": [.postUnderTheOwnersLock("s1"), .postUnderTheOwnersLock("s2")], "T": [.postUnderTheOwnersLock("t")]]
                : ["S": [.postUnderTheOwnersLock("s")], "R": [.enqueueForLater("r"), .claim]],
            subscribers: 1
        )
        model.takesEverythingWaiting = true
        if !fromTwoThreads { model.handlerOfFirstSubscriberPosts = ["s": "s'"] }
        let report = model.exploreEveryInterleaving()
        #expect(report.failures == [])
        #expect(report.interleavings == (fromTwoThreads ? 733 : 247))
    }

    @Test func takingEverythingUncountsEverything() {
        var state = DeliveryState(isDelivering: true, pending: 3)
        #expect(Machine.tookAll(&state, count: 3) == .deliverNow)
        #expect(state == DeliveryState(isDelivering: true))
        #expect(Machine.finish(&state) == .idle)
    }

    /// The model catches a broken protocol: a `finish` that gives the role up with values
    /// waiting strands them, and the exploration says so.
    @Test func theModelCatchesAStrandedValue() {
        var model = DeliveryModel(threads: ["A": [.send("a")], "B": [.send("b")]], subscribers: 1)
        model.finish = { state in
            state.isDelivering = false
            return .idle
        }
        let report = model.exploreEveryInterleaving()
        #expect(report.failures.contains { $0.contains("left waiting") })
    }

    /// ... and a `send` that delivers at once while values wait overtakes them.
    @Test func theModelCatchesAValueOvertakingTheQueue() {
        var model = DeliveryModel(
            threads: ["S": [.enqueueForLater("s"), .claim], "B": [.send("b")]],
            subscribers: 1
        )
        model.send = { state in
            if state.isDelivering {
                state.pending += 1
                return .enqueue
            }
            state.isDelivering = true
            return .deliverNow
        }
        let report = model.exploreEveryInterleaving()
        #expect(report.failures.contains { $0.contains("out of send order") })
    }
}

/// Emitter threads as steps, explored in every interleaving. See ``DeliveryStateMachineTests``.
///
/// A step is what a thread does atomically: a transition applied under the owner's lock together
/// with the queue change it asks for (`send`, `enqueueForLater`, `take`, `subscribe`, `cancel`),
/// a transition without the lock (`sendWithoutLock`, the role taken by `takeTheRoleIfIdle`,
/// `claim`, `finish`), or one handler call
/// (`call`). A delivery under the lock is a snapshot of the live subscribers taken when the value
/// is taken in hand, which it also publishes; a send without the lock delivers to the last one
/// published. Then one `call` step per subscriber, each skipped if the subscriber was cancelled
/// since: the emitter core's loop.
struct DeliveryModel {
    enum Step: Equatable {
        case send(String)
        /// A send that tries the lock-free way first, and takes the lock (`send`) if told to.
        case sendWithoutLock(String)
        /// A relay's owner posting under a lock of its own (``Relay/takeTheRoleIfIdle()``, then
        /// ``Relay/keepTaken(_:)`` or ``Relay/enqueue(_:)``): the role taken from idle, or the
        /// value queued for later and claimed.
        case postUnderTheOwnersLock(String)
        case enqueueForLater(String)
        case claim
        case finish
        case take
        case call(String, subscriber: Int)
        /// A subscriber of `lateSubscribers` registers.
        case subscribe(Int)
        case cancel(Int)
    }

    struct Report {
        var interleavings = 0
        var failures: [String] = []
    }

    var threads: [String: [Step]]
    var subscribers: Int
    /// Subscribers numbered from `subscribers` on, live from their `subscribe` step.
    var lateSubscribers = 0
    /// The value the first subscriber's handler sends, reentrantly, when it gets a value.
    var handlerOfFirstSubscriberSends: [String: String] = [:]
    /// The value the first subscriber's handler posts, as a relay's owner does
    /// (``Step/postUnderTheOwnersLock(_:)``), when it gets a value.
    var handlerOfFirstSubscriberPosts: [String: String] = [:]
    /// The subscriber the first subscriber's handler cancels when it gets a value.
    var handlerOfFirstSubscriberCancels: [String: Int] = [:]
    /// The `finish` transition, replaceable to check that the model catches a broken protocol.
    var finish: (inout DeliveryState) -> DeliveryAction = DeliveryStateMachine.finish
    /// Whether the holder takes every waiting value at once (``DeliveryStateMachine/tookAll(_:count:)``,
    /// as a ``Relay`` does) rather than one at a time (as an emitter does).
    var takesEverythingWaiting = false
    /// The `send` transition, likewise.
    var send: (inout DeliveryState) -> DeliveryAction = DeliveryStateMachine.send
    /// The `handlersWillChange` transition, likewise.
    var handlersWillChange: (inout DeliveryState) -> DeliveryAction = DeliveryStateMachine.handlersWillChange

    /// The world one interleaving has reached.
    struct World {
        var state = DeliveryState.idle
        var queue: [String] = []
        var holder: String?
        var threads: [String: [Step]]
        var clock = 0
        var sentAt: [String: Int] = [:]
        var subscribedAt: [Int: Int] = [:]
        var cancelledAt: [Int: Int] = [:]
        /// The subscribers the last delivery under the lock published.
        var snapshot: [Int] = []
        var calls: [(value: String, subscriber: Int)] = []
        var failures: [String] = []
    }

    func exploreEveryInterleaving() -> Report {
        var report = Report()
        var world = World(threads: threads)
        world.snapshot = Array(0..<subscribers)  // published when they subscribed
        explore(world, &report)
        return report
    }

    private func explore(_ world: World, _ report: inout Report) {
        let ready = world.threads.keys.sorted().filter { !(world.threads[$0]!.isEmpty) }
        guard !ready.isEmpty, world.failures.isEmpty else {
            report.interleavings += 1
            var world = world
            check(&world)
            for failure in world.failures where !report.failures.contains(failure) {
                report.failures.append(failure)
            }
            return
        }
        for thread in ready {
            var next = world
            step(thread, in: &next)
            explore(next, &report)
        }
    }

    private func step(_ thread: String, in world: inout World) {
        let step = world.threads[thread]!.removeFirst()
        world.clock += 1
        var then: [Step] = []
        switch step {
        case .send(let value):
            world.sentAt[value] = world.clock
            let holdsTheRole = world.holder == thread
            let action = send(&world.state)
            if holdsTheRole, action != .enqueue {
                world.failures.append("a reentrant send of \(value) was told \(action), not to queue")
            }
            switch action {
            case .deliverNow:
                take(thread, in: &world)
                then = delivery(of: value, in: &world) + [.finish]
            case .enqueue:
                world.queue.append(value)
            case .drain:
                world.queue.append(value)
                take(thread, in: &world)
                then = [.finish]
            default:
                world.failures.append("send answered \(action)")
            }
        case .sendWithoutLock(let value):
            switch DeliveryStateMachine.sendWithoutLock(&world.state) {
            case .deliverNow:
                world.sentAt[value] = world.clock
                take(thread, in: &world)
                then = world.snapshot.map { .call(value, subscriber: $0) } + [.finish]
            case .takeTheLock:
                then = [.send(value)]
            case let action:
                world.failures.append("sendWithoutLock answered \(action)")
            }
        case .postUnderTheOwnersLock(let value):
            switch DeliveryStateMachine.sendWithoutLock(&world.state) {
            case .deliverNow:
                world.sentAt[value] = world.clock
                take(thread, in: &world)
                then = delivery(of: value, in: &world) + [.finish]
            case .takeTheLock:
                then = [.enqueueForLater(value), .claim]
            case let action:
                world.failures.append("sendWithoutLock answered \(action)")
            }
        case .enqueueForLater(let value):
            world.sentAt[value] = world.clock
            world.queue.append(value)
            _ = DeliveryStateMachine.enqueuedForLater(&world.state)
        case .claim:
            if DeliveryStateMachine.claim(&world.state) == .drain {
                take(thread, in: &world)
                then = [.finish]
            }
        case .finish:
            expectHolder(thread, in: &world)
            switch finish(&world.state) {
            case .takeNext: then = [.take]
            case .idle: world.holder = nil
            case let action: world.failures.append("finish answered \(action)")
            }
        case .take:
            expectHolder(thread, in: &world)
            guard !world.queue.isEmpty else {
                world.failures.append("told to take a value, but the queue is empty")
                return
            }
            if takesEverythingWaiting {
                let values = world.queue
                world.queue.removeAll()
                _ = DeliveryStateMachine.tookAll(&world.state, count: values.count)
                then = values.flatMap { delivery(of: $0, in: &world) } + [.finish]
            } else {
                let value = world.queue.removeFirst()
                _ = DeliveryStateMachine.tookNext(&world.state)
                then = delivery(of: value, in: &world) + [.finish]
            }
        case .call(let value, let subscriber):
            expectHolder(thread, in: &world)
            guard world.cancelledAt[subscriber] == nil else { break }  // the loop's token check
            world.calls.append((value, subscriber))
            if subscriber == 0 {
                if let sent = handlerOfFirstSubscriberSends[value] { then.append(.send(sent)) }
                if let posted = handlerOfFirstSubscriberPosts[value] { then.append(.postUnderTheOwnersLock(posted)) }
                if let cancelled = handlerOfFirstSubscriberCancels[value] { then.append(.cancel(cancelled)) }
            }
        case .subscribe(let subscriber):
            _ = handlersWillChange(&world.state)
            world.subscribedAt[subscriber] = world.clock
        case .cancel(let subscriber):
            _ = handlersWillChange(&world.state)
            world.cancelledAt[subscriber] = world.clock
        }
        world.threads[thread]!.insert(contentsOf: then, at: 0)
    }

    /// A delivery of `value` under the lock: one call per subscriber live now (the snapshot,
    /// which it publishes).
    private func delivery(of value: String, in world: inout World) -> [Step] {
        world.snapshot = (0..<subscribers + lateSubscribers).filter { subscriber in
            (subscriber < subscribers || world.subscribedAt[subscriber] != nil) && world.cancelledAt[subscriber] == nil
        }
        return world.snapshot.map { .call(value, subscriber: $0) }
    }

    private func take(_ thread: String, in world: inout World) {
        if let holder = world.holder {
            world.failures.append("\(thread) took the role while \(holder) held it")
        }
        world.holder = thread
    }

    private func expectHolder(_ thread: String, in world: inout World) {
        if world.holder != thread {
            world.failures.append("\(thread) acted as the holder, but \(world.holder ?? "nobody") held the role")
        }
    }

    /// What every interleaving must end with.
    private func check(_ world: inout World) {
        if world.state.isDelivering || world.state.pending > 0 || world.holder != nil {
            world.failures.append("ended \(world.state), held by \(world.holder ?? "nobody")")
        }
        if !world.queue.isEmpty { world.failures.append("\(world.queue) left waiting") }
        let everyone = subscribers + lateSubscribers
        var received: [[String]] = Array(repeating: [], count: everyone)
        for call in world.calls { received[call.subscriber].append(call.value) }
        for (subscriber, values) in received.enumerated() {
            if Set(values).count != values.count { world.failures.append("subscriber \(subscriber) got \(values)") }
            // Only a cancellation excuses a value missed; a late subscriber is owed the values
            // sent after it subscribed.
            let since = subscriber < subscribers ? 0 : world.subscribedAt[subscriber] ?? Int.max
            for value in world.sentAt.keys.sorted()
            where !values.contains(value) && world.cancelledAt[subscriber] == nil && world.sentAt[value]! > since {
                world.failures.append("subscriber \(subscriber) never got \(value)")
            }
            if subscriber >= subscribers, world.subscribedAt[subscriber] == nil, !values.isEmpty {
                world.failures.append("subscriber \(subscriber) got \(values) before it subscribed")
            }
            for value in values {
                if let cancelled = world.cancelledAt[subscriber], let sent = world.sentAt[value], sent > cancelled {
                    world.failures.append("\(value), sent after subscriber \(subscriber) was cancelled, reached it")
                }
            }
            // In the order they were sent (sends are ordered by the lock): so each thread's own
            // values in its order, and nothing overtakes a value queued before it.
            if values != values.sorted(by: { world.sentAt[$0]! < world.sentAt[$1]! }) {
                world.failures.append("subscriber \(subscriber) got \(values), out of send order")
            }
        }
        // Every subscriber sees the values it shares with another in the same order.
        for a in 0..<everyone {
            for b in (a + 1)..<everyone {
                let common = Set(received[a]).intersection(received[b])
                if received[a].filter(common.contains) != received[b].filter(common.contains) {
                    world.failures.append("subscribers \(a) and \(b) disagree: \(received[a]) against \(received[b])")
                }
            }
        }
    }
}
