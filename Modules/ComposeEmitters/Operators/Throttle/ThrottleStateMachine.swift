/// The pure logic of ``Emitters/Throttle``.
///
/// Idle, a value is sent at once and opens a window of one interval. Values arriving inside the
/// window are held back (the latest, or the first, of them); when the window closes the held
/// value is sent and opens the next window. A window that closes with nothing held ends the
/// throttling, and the next value is sent at once again.
struct ThrottleStateMachine<Value, Instant: InstantProtocol> where Instant.Duration == Duration {
    enum Action {
        case none
        /// Send the value and wake up when the window it opens closes.
        case emit(Value, windowEnd: Instant)
    }

    private enum State {
        /// No window is open: the next value is sent at once.
        case idle
        /// A window is open until `end`, holding back `held`, if any.
        case window(end: Instant, held: Value?)
    }

    let interval: Duration
    let keepsLatest: Bool
    private var state = State.idle

    init(interval: Duration, keepsLatest: Bool) {
        self.interval = interval
        self.keepsLatest = keepsLatest
    }

    mutating func received(_ value: Value, at now: Instant) -> Action {
        switch state {
        case .idle:
            let end = now.advanced(by: interval)
            state = .window(end: end, held: nil)
            return .emit(value, windowEnd: end)
        case .window(let end, let held):
            state = .window(end: end, held: keepsLatest || held == nil ? value : held)
            return .none
        }
    }

    mutating func alarmFired(for fired: Instant) -> Action {
        guard case .window(let end, let held) = state, fired == end else { return .none }
        guard let value = held else {
            state = .idle
            return .none
        }
        let next = fired.advanced(by: interval)
        state = .window(end: next, held: nil)
        return .emit(value, windowEnd: next)
    }
}
