import ComposeMachinery

/// An emitter fed by a task: the task starts with the first subscription and is cancelled when
/// the last subscription is cancelled, or on ``stop()``. It never restarts.
///
/// Shared by ``Emitters/AsyncSequenceEmitter`` and ``Emitters/Future``.
final class TaskSource<Value: Sendable>: Sendable {
    private struct State {
        var task: Task<Void, Never>?
        var subscribers = 0
        var isStopped = false
    }

    let core: EmitterCore<Value>
    private let state = LockedState<State>(State())
    /// What the task sends goes through: ``stop()`` stops it, so that once `stop()` has returned
    /// nothing is sent (a send under way on the task's thread is waited for).
    private let sending = Relay<Value>()
    private let work: @Sendable (_ send: @escaping @Sendable (Value) -> Void) async -> Void

    /// - Parameters:
    ///   - replaysLast: Whether a late subscriber first receives the last value (a future's result).
    ///   - work: Sends with `send`; runs once, in a task.
    init(replaysLast: Bool, work: @escaping @Sendable (_ send: @escaping @Sendable (Value) -> Void) async -> Void) {
        let core = EmitterCore<Value>(label: nil, remembersValues: replaysLast)
        self.core = core
        self.work = work
        sending.start { value in core.send(value) }
    }

    func register(_ handler: @escaping @Sendable (Value) -> Void) -> EmitterSubscription {
        let registration = core.register(handler, replayCurrent: core.remembersValues)
        state.withLock { state in
            state.subscribers += 1
            guard state.task == nil, !state.isStopped else { return }
            // Creating a task runs nothing synchronously, so this is safe under the lock.
            let sending = self.sending
            let work = self.work
            state.task = ObservationScope.outsideAnyScope { Task { await work { sending.send($0) } } }
        }
        return EmitterSubscription(cancelling: registration) { [self] in
            let task: Task<Void, Never>? = state.withLock { state in
                state.subscribers -= 1
                guard state.subscribers == 0 else { return nil }
                state.isStopped = true
                return state.task
            }
            task?.cancel()
        }
    }

    /// Cancels the task; once this has returned, nothing is sent.
    func stop() {
        let task = state.withLock { state in
            state.isStopped = true
            return state.task
        }
        task?.cancel()
        sending.stop()
    }
}
