/// The pure logic of ``Emitters/Debounce``: which value to send, and when to wake up.
///
/// One alarm at most is pending. A burst of values moves the deadline but not the alarm; when
/// the alarm fires before the (moved) deadline, the machine asks for a new alarm at the deadline.
/// A burst therefore costs two alarms, not one per value.
struct DebounceStateMachine<Value, Instant: InstantProtocol> where Instant.Duration == Duration {
    enum Action {
        case none
        case schedule(Instant)
        case emit(Value)
    }

    private enum State {
        /// Nothing waits, and no alarm is set.
        case idle
        /// `value` waits until `deadline`; the alarm is set for `alarm` (not after the deadline).
        case waiting(value: Value, deadline: Instant, alarm: Instant)
    }

    let interval: Duration
    private var state = State.idle

    init(interval: Duration) {
        self.interval = interval
    }

    mutating func received(_ value: Value, at now: Instant) -> Action {
        let deadline = now.advanced(by: interval)
        switch state {
        case .idle:
            state = .waiting(value: value, deadline: deadline, alarm: deadline)
            return .schedule(deadline)
        case .waiting(_, _, let alarm):
            state = .waiting(value: value, deadline: deadline, alarm: alarm)
            return .none
        }
    }

    mutating func alarmFired(for fired: Instant) -> Action {
        // An alarm that was replaced can still fire; only the one set counts.
        guard case .waiting(let value, let deadline, let alarm) = state, fired == alarm else { return .none }
        if deadline > fired {
            state = .waiting(value: value, deadline: deadline, alarm: deadline)
            return .schedule(deadline)
        }
        state = .idle
        return .emit(value)
    }
}
