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

    private enum State {
        /// Nothing waits, and no alarm is set.
        case idle
        /// Values wait, oldest first; the alarm is set for `alarm`, the head's due time.
        case waiting(Deque<(due: Instant, value: Value)>, alarm: Instant)
    }

    let interval: Duration
    private var state = State.idle

    init(interval: Duration) {
        self.interval = interval
    }

    mutating func received(_ value: Value, at now: Instant) -> Action {
        let due = now.advanced(by: interval)
        switch state {
        case .idle:
            state = .waiting([(due, value)], alarm: due)
            return Action(schedule: due)
        case .waiting(var waiting, let alarm):
            state = .idle  // no second reference while it grows
            waiting.append((due, value))
            state = .waiting(waiting, alarm: alarm)
            return Action()
        }
    }

    mutating func alarmFired(for fired: Instant, at now: Instant) -> Action {
        guard case .waiting(var waiting, let alarm) = state, fired == alarm else { return Action() }
        state = .idle
        var action = Action()
        while let head = waiting.first, head.due <= now {
            action.emit.append(head.value)
            waiting.removeFirst()
        }
        if let head = waiting.first {
            state = .waiting(waiting, alarm: head.due)
            action.schedule = head.due
        }
        return action
    }
}
