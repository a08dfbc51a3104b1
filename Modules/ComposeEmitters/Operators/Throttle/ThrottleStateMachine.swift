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

    let interval: Duration
    let keepsLatest: Bool
    /// When the current window closes; `nil` when idle.
    private var windowEnd: Instant?
    private var held: Value?

    init(interval: Duration, keepsLatest: Bool) {
        self.interval = interval
        self.keepsLatest = keepsLatest
    }

    mutating func received(_ value: Value, at now: Instant) -> Action {
        guard windowEnd != nil else {
            let end = now.advanced(by: interval)
            windowEnd = end
            return .emit(value, windowEnd: end)
        }
        if keepsLatest || held == nil { held = value }
        return .none
    }

    mutating func alarmFired(for fired: Instant) -> Action {
        guard fired == windowEnd else { return .none }
        guard let value = held else {
            windowEnd = nil
            return .none
        }
        held = nil
        let end = fired.advanced(by: interval)
        windowEnd = end
        return .emit(value, windowEnd: end)
    }
}
