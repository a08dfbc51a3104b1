import Clocks

extension TestClock<Duration> {
    /// Advances the clock, then keeps waking sleepers that registered late (a task that reached
    /// `sleep(until:)` only after the advance) until `condition` holds, for up to 60 s of real
    /// time.
    ///
    /// `TestClock.sleep(until:)` suspends when the deadline equals `now`, so a timer task that
    /// starts just after `advance(by:)` would otherwise wait for the next advance. The limit is
    /// generous because each advance yields to background-priority tasks, which a busy machine
    /// running many tests in parallel can hold back for seconds; it only costs time when the
    /// condition never holds.
    ///
    /// - Returns: Whether `condition` held in time.
    @discardableResult
    public func advance(by duration: Duration, until condition: () -> Bool) async -> Bool {
        await advance(by: duration)
        let deadline = ContinuousClock.now.advanced(by: .seconds(60))
        while !condition() {
            guard ContinuousClock.now < deadline else { return false }
            await advance(by: .zero)
        }
        return true
    }

    /// Advances the clock and lets every task that became due run: for `debounce`,
    /// `throttle`, `delay`, timers and autosave driven by this clock.
    public func settle(by duration: Duration = .zero) async {
        await advance(by: duration)
        for _ in 0..<20 { await advance(by: .zero) }
    }
}
