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
    private let work: @Sendable (EmitterCore<Value>) async -> Void

    /// - Parameters:
    ///   - replaysLast: Whether a late subscriber first receives the last value (a future's result).
    ///   - work: Sends on the core; runs once, in a task.
    init(replaysLast: Bool, work: @escaping @Sendable (EmitterCore<Value>) async -> Void) {
        core = EmitterCore(label: nil, remembersValues: replaysLast)
        self.work = work
    }

    func register(_ handler: @escaping @Sendable (Value) -> Void) -> EmitterSubscription {
        let registration = core.register(handler, replayCurrent: core.remembersValues)
        state.withLock { state in
            state.subscribers += 1
            guard state.task == nil, !state.isStopped else { return }
            // Creating a task runs nothing synchronously, so this is safe under the lock.
            let core = self.core
            let work = self.work
            state.task = ObservationScope.outsideAnyScope { Task { await work(core) } }
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

    /// Cancels the task; nothing is sent afterwards.
    func stop() {
        let task = state.withLock { state in
            state.isStopped = true
            return state.task
        }
        task?.cancel()
    }
}
