/// The pure logic of autosave: save at the first change, then gather changes into one save per
/// window.
struct AutosaveStateMachine<Instant: InstantProtocol> where Instant.Duration == Duration {
    enum Action: Equatable {
        case none
        /// Save now, and wake up when the window that opens closes.
        case saveAndWait(until: Instant)
        /// Save now; no window to wait for.
        case save
    }

    let window: Duration
    /// When the current window closes; `nil` when quiet.
    private(set) var windowEnd: Instant?
    /// Whether something changed since the last save.
    private(set) var isDirty = false

    init(window: Duration) {
        self.window = window
    }

    mutating func changed(at now: Instant) -> Action {
        guard windowEnd != nil else {
            let end = now.advanced(by: window)
            windowEnd = end
            return .saveAndWait(until: end)
        }
        isDirty = true
        return .none
    }

    mutating func windowClosed(_ end: Instant) -> Action {
        guard end == windowEnd else { return .none }  // a stale alarm
        guard isDirty else {
            windowEnd = nil
            return .none
        }
        isDirty = false
        let next = end.advanced(by: window)
        windowEnd = next
        return .saveAndWait(until: next)
    }

    /// Drops what is pending (the data was purged): the next change saves at once.
    mutating func cancelPending() {
        windowEnd = nil
        isDirty = false
    }

    /// Saves what is pending now, instead of at the end of the window.
    mutating func flush() -> Action {
        guard isDirty else { return .none }
        isDirty = false
        return .save
    }
}
