import DequeModule

/// The pure logic of ``Emitters/Delay``: a queue of values with their due times, and one alarm
/// for the head of the queue.
struct DelayStateMachine<Value, Instant: InstantProtocol> where Instant.Duration == Duration {
    struct Action {
        /// The values now due, in arrival order.
        var emit: [Value] = []
        /// When to wake up next, if anything is still waiting.
        var schedule: Instant?
    }

    let interval: Duration
    private var waiting: Deque<(due: Instant, value: Value)> = []
    private var armed: Instant?

    init(interval: Duration) {
        self.interval = interval
    }

    mutating func received(_ value: Value, at now: Instant) -> Action {
        let due = now.advanced(by: interval)
        waiting.append((due, value))
        guard armed == nil else { return Action() }
        armed = due
        return Action(schedule: due)
    }

    mutating func alarmFired(for fired: Instant, at now: Instant) -> Action {
        guard fired == armed else { return Action() }
        armed = nil
        var action = Action()
        while let head = waiting.first, head.due <= now {
            action.emit.append(head.value)
            waiting.removeFirst()
        }
        if let head = waiting.first {
            armed = head.due
            action.schedule = head.due
        }
        return action
    }
}
