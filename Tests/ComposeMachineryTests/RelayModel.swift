import ComposeMachinery

/// A ``Relay``'s threads as steps, explored in every interleaving, with the queue, the handler and
/// the actor modelled beside ``DeliveryStateMachine``. See ``RelayModelTests``.
///
/// A step is what a thread does atomically: a transition applied under the relay's lock together
/// with the queue change it asks for (`send` under the lock, `stop`, `take`), a transition
/// without the lock (the send that takes the role from idle, `finish`, a scheduled task's
/// beginning), a look at the stopped mark before a call, or entering and leaving the handler.
/// The relay runs inline, or on an actor: then the threads marked as the actor's (code running
/// on it, and the tasks the relay schedules there) never interleave with one another, as an
/// actor runs one job at a time; the others interleave with everything.
struct RelayModel {
    enum Step: Equatable {
        /// A send; on the actor (or inline) it may take the role, elsewhere it queues.
        case send(String)
        /// `stop()`, made outside the handler.
        case stop
        /// The caller releases its subscription: nothing happens to the relay.
        case releaseHandle
        // Steps a thread is given by a transition:
        case sendUnderLock(String)
        case finish
        case take
        case lookThenCall(String)
        case enter(String)
        case leave
        case taskBegan
        case waitForTheHolder
        case stopReturned
    }

    struct Report {
        var interleavings = 0
        var failures: [String] = []
    }

    /// The threads, by name, and their steps.
    var threads: [String: [Step]]
    /// The threads that run on the relay's actor; empty for an inline relay.
    var onTheActor: Set<String> = []
    /// Whether the relay runs on an actor (sends from other threads queue for a task there).
    var isolated = false
    /// What the handler does when it gets a value, while it runs.
    var handlerSends: [String: String] = [:]
    var handlerStops: Set<String> = []
    /// The `finish` transition, replaceable to check that the model catches a broken protocol.
    var finish: (inout DeliveryState) -> DeliveryAction = DeliveryStateMachine.finish
    /// The `send` transition (under the lock), likewise.
    var send: (inout DeliveryState) -> DeliveryAction = DeliveryStateMachine.send
    /// The `stop` transition, likewise.
    var stop: (inout DeliveryState, Bool) -> DeliveryAction = DeliveryStateMachine.stop

    struct World {
        var state = DeliveryState.idle
        var queue: [String] = []
        var holder: String?
        /// The thread inside the handler, if any.
        var inside: String?
        var threads: [String: [Step]]
        /// The actor's thread running now, until it runs out of steps.
        var actorOwner: String?
        var tasks = 0
        var clock = 0
        var sentAt: [String: Int] = [:]
        var stoppedAt: Int?
        var stopReturnedAt: Int?
        var handlerReleased = false
        var entered: [(value: String, at: Int)] = []
        var failures: [String] = []
    }

    func exploreEveryInterleaving() -> Report {
        var report = Report()
        explore(World(threads: threads), &report)
        return report
    }

    /// Whether `thread` runs on the relay's actor: code marked so, and the tasks the relay sends.
    private func isOnTheActor(_ thread: String) -> Bool {
        onTheActor.contains(thread) || (isolated && thread.hasPrefix("task"))
    }

    private func isEnabled(_ thread: String, in world: World) -> Bool {
        guard let step = world.threads[thread]?.first else { return false }
        if isOnTheActor(thread), let owner = world.actorOwner, owner != thread { return false }
        if step == .waitForTheHolder { return !world.state.isDelivering }
        return true
    }

    private func explore(_ world: World, _ report: inout Report) {
        let ready = world.threads.keys.sorted().filter { isEnabled($0, in: world) }
        guard !ready.isEmpty, world.failures.isEmpty else {
            report.interleavings += 1
            var world = world
            if world.failures.isEmpty, world.threads.values.contains(where: { !$0.isEmpty }) {
                world.failures.append("deadlock: \(world.threads.filter { !$0.value.isEmpty })")
            }
            check(&world)
            for failure in world.failures where !report.failures.contains(failure) { report.failures.append(failure) }
            return
        }
        for thread in ready {
            var next = world
            step(thread, in: &next)
            explore(next, &report)
        }
    }

    private func step(_ thread: String, in world: inout World) {
        if isOnTheActor(thread) { world.actorOwner = thread }
        let step = world.threads[thread]!.removeFirst()
        world.clock += 1
        var then: [Step] = []
        switch step {
        case .send(let value):
            world.sentAt[value] = world.clock
            if isolated && !isOnTheActor(thread) {
                switch DeliveryStateMachine.enqueuedForAnotherExecutor(&world.state) {
                case .discard: break
                case .done: world.queue.append(value)
                case .schedule:
                    world.queue.append(value)
                    world.tasks += 1
                    world.threads["task \(world.tasks)"] = [.taskBegan]
                case let action: world.failures.append("enqueuedForAnotherExecutor answered \(action)")
                }
            } else if DeliveryStateMachine.sendWithoutLock(&world.state) == .deliverNow {
                // Taken from idle, so not stopped: the value is handled at once (a stop made
                // from now on waits for this thread).
                take(thread, in: &world)
                then = [.enter(value), .finish]
            } else {
                then = [.sendUnderLock(value)]  // ordered by the lock, in that step
            }
        case .sendUnderLock(let value):
            world.sentAt[value] = world.clock
            switch send(&world.state) {
            case .deliverNow:
                take(thread, in: &world)
                then = [.enter(value), .finish]
            case .drain:
                world.queue.append(value)
                take(thread, in: &world)
                then = [.finish]
            case .enqueue: world.queue.append(value)
            case .discard: break
            case let action: world.failures.append("send answered \(action)")
            }
        case .taskBegan:
            if DeliveryStateMachine.scheduledTaskBegan(&world.state) == .drain {
                take(thread, in: &world)
                then = [.finish]
            }
        case .finish:
            expectHolder(thread, in: &world)
            switch finish(&world.state) {
            case .takeNext: then = [.take]
            case .idle: world.holder = nil
            case .stopped:
                world.holder = nil
                world.queue.removeAll()
                releaseHandler(in: &world)
            case let action: world.failures.append("finish answered \(action)")
            }
        case .take:
            expectHolder(thread, in: &world)
            let values = world.queue
            world.queue.removeAll()
            _ = DeliveryStateMachine.tookAll(&world.state, count: values.count)
            then = values.map { .lookThenCall($0) } + [.finish]
        case .lookThenCall(let value):
            expectHolder(thread, in: &world)
            if world.state.isStopped {
                // The rest of the batch is dropped.
                world.threads[thread]!.removeAll { if case .lookThenCall = $0 { true } else { false } }
            } else {
                then = [.enter(value)]
            }
        case .enter(let value):
            if let inside = world.inside { world.failures.append("\(thread) entered the handler while \(inside) was in it") }
            if world.handlerReleased { world.failures.append("\(value) reached a released handler") }
            world.inside = thread
            world.entered.append((value, world.clock))
            if let sent = handlerSends[value] { then.append(.send(sent)) }
            if handlerStops.contains(value) { then.append(.stop) }
            then.append(.leave)
        case .leave:
            world.inside = nil
        case .stop:
            world.stoppedAt = world.stoppedAt ?? world.clock
            switch stop(&world.state, world.holder == thread) {
            case .dropEverything:
                world.queue.removeAll()
                releaseHandler(in: &world)
                then = [.stopReturned]
            case .waitForTheHolder: then = [.waitForTheHolder, .stopReturned]
            case .done: then = [.stopReturned]
            case let action: world.failures.append("stop answered \(action)")
            }
        case .waitForTheHolder:
            break
        case .stopReturned:
            world.stopReturnedAt = world.stopReturnedAt ?? world.clock
        case .releaseHandle:
            break  // the relay is kept by the registration, not by the caller's handle
        }
        world.threads[thread]!.insert(contentsOf: then, at: 0)
        if world.threads[thread]!.isEmpty, world.actorOwner == thread { world.actorOwner = nil }
    }

    /// The handler is taken out of the relay by whoever finds it stopped with nobody holding the
    /// role (two stops may both do it: the second finds nothing).
    private func releaseHandler(in world: inout World) {
        if let inside = world.inside { world.failures.append("the handler was released while \(inside) was in it") }
        world.handlerReleased = true
    }

    private func take(_ thread: String, in world: inout World) {
        if let holder = world.holder { world.failures.append("\(thread) took the role while \(holder) held it") }
        world.holder = thread
    }

    private func expectHolder(_ thread: String, in world: inout World) {
        if world.holder != thread {
            world.failures.append("\(thread) acted as the holder, but \(world.holder ?? "nobody") held the role")
        }
    }

    /// What every interleaving must end with.
    private func check(_ world: inout World) {
        if world.state.isDelivering || world.holder != nil {
            world.failures.append("ended \(world.state), held by \(world.holder ?? "nobody")")
        }
        if world.state.isScheduled { world.failures.append("ended with a task scheduled that never ran") }
        let values = world.entered.map(\.value)
        if Set(values).count != values.count { world.failures.append("the handler got \(values)") }
        if values != values.sorted(by: { world.sentAt[$0]! < world.sentAt[$1]! }) {
            world.failures.append("the handler got \(values), out of send order")
        }
        if let returned = world.stopReturnedAt {
            for (value, at) in world.entered where at > returned {
                world.failures.append("\(value) reached the handler after stop returned")
            }
            if !world.handlerReleased { world.failures.append("stopped, and the handler was never released") }
            if !world.queue.isEmpty || world.state.pending > 0 { world.failures.append("stopped with \(world.queue) kept") }
        } else {
            // Never stopped: nothing is lost.
            for value in world.sentAt.keys.sorted() where !values.contains(value) {
                world.failures.append("\(value) never reached the handler")
            }
            if !world.queue.isEmpty || world.state != .idle { world.failures.append("ended \(world.state) with \(world.queue)") }
        }
    }
}
