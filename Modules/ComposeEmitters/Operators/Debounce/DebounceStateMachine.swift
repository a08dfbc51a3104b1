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

    let interval: Duration
    /// The newest value, waiting for a quiet interval.
    private var pending: Value?
    /// When `pending` may be sent: an interval after it arrived.
    private var deadline: Instant?
    /// The deadline the pending alarm was set for.
    private var armed: Instant?

    init(interval: Duration) {
        self.interval = interval
    }

    mutating func received(_ value: Value, at now: Instant) -> Action {
        pending = value
        let deadline = now.advanced(by: interval)
        self.deadline = deadline
        guard armed == nil else { return .none }
        armed = deadline
        return .schedule(deadline)
    }

    mutating func alarmFired(for fired: Instant) -> Action {
        // An alarm that was replaced can still fire; only the armed one counts.
        guard fired == armed else { return .none }
        armed = nil
        guard let deadline, let value = pending else { return .none }
        if deadline > fired {
            armed = deadline
            return .schedule(deadline)
        }
        pending = nil
        self.deadline = nil
        return .emit(value)
    }
}
