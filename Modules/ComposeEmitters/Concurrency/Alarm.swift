import ComposeMachinery

/// A one-shot timer on an injected clock, owned by one subscription of a time-based operator.
///
/// At most one wake-up is pending: scheduling another replaces it. Once cancelled, the alarm
/// never fires again, which is how cancelling a `debounce` subscription releases its sleeping task.
package final class Alarm<C: Clock>: Sendable where C.Duration == Duration {
    private struct State {
        var task: Task<Void, Never>?
        var isCancelled = false
    }

    package let clock: C
    private let state = LockedState<State>(State())

    package init(clock: C) {
        self.clock = clock
    }

    /// Calls `fire` at `deadline`, unless the alarm is cancelled or rescheduled first.
    package func schedule(at deadline: C.Instant, _ fire: @escaping @Sendable () -> Void) {
        let clock = self.clock
        let task = ObservationScope.outsideAnyScope {
            Task {
                do {
                    try await clock.sleep(until: deadline, tolerance: nil)
                } catch {
                    return
                }
                // What time brings about is a consequence, not an input (see `EventLog`).
                EventLog.asConsequence(fire)
            }
        }
        let superseded: Task<Void, Never>? = state.withLock { state in
            if state.isCancelled { return task }
            defer { state.task = task }
            return state.task
        }
        // A superseded task that already woke up still fires; state machines tell its event apart
        // by the deadline it carries.
        superseded?.cancel()
    }

    /// Cancels the pending wake-up, if any; later ones are scheduled as usual.
    package func cancelPending() {
        let task = state.withLock { state in
            defer { state.task = nil }
            return state.task
        }
        task?.cancel()
    }

    /// Cancels the pending wake-up and every later one.
    package func cancel() {
        let task = state.withLock { state in
            state.isCancelled = true
            defer { state.task = nil }
            return state.task
        }
        task?.cancel()
    }
}
