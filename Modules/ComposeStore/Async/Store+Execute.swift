import ComposeEmitters
import ComposeMachinery

/// The running `execute` tasks of a store, by key path, with a generation each so a run that was
/// replaced cannot write its result.
@usableFromInline
final class Executions: Sendable {
    /// A run's task is `nil` from the moment the run is current until its task exists.
    private let running = LockedState<[AnyKeyPath: (generation: UInt64, task: Task<Void, Never>?)]>([:])
    private let generations = LockedState<UInt64>(0)

    @usableFromInline
    init() {}

    /// Makes a new run current for `keyPath` and cancels the one it replaces, then calls `begin`
    /// and `makeTask` with the run's generation.
    ///
    /// The replaced run is cancelled before `begin` commits anything, so its result, whose commit
    /// asks `Task.isCancelled` under the store's lock, lands before the new run began or never.
    /// `begin` must commit only while its run is current (``isCurrent(_:_:)``, asked under the
    /// store's lock): a run started meanwhile on another thread may already have committed its
    /// result, which a late `.loading` would otherwise hide for good.
    func start(
        _ keyPath: AnyKeyPath,
        begin: (UInt64) -> Void,
        _ makeTask: (UInt64) -> Task<Void, Never>
    ) -> Task<Void, Never> {
        let generation = generations.withLock { generation in
            generation &+= 1
            return generation
        }
        let replaced = running.withLock { running in
            defer { running[keyPath] = (generation, nil) }
            return running[keyPath]?.task
        }
        replaced?.cancel()
        begin(generation)
        let task = makeTask(generation)
        let isCurrent = running.withLock { running in
            guard running[keyPath]?.generation == generation else { return false }
            running[keyPath] = (generation, task)
            return true
        }
        // Replaced or cancelled with the store's other runs before its task existed.
        if !isCurrent { task.cancel() }
        return task
    }

    /// Whether `generation` is still the current run for `keyPath`.
    func isCurrent(_ keyPath: AnyKeyPath, _ generation: UInt64) -> Bool {
        running.withLock { $0[keyPath]?.generation == generation }
    }

    /// Forgets a run that finished, unless it was replaced.
    func finish(_ keyPath: AnyKeyPath, _ generation: UInt64) {
        running.withLock { running in
            if running[keyPath]?.generation == generation { running[keyPath] = nil }
        }
    }

    /// The key paths of the runs still going.
    var runningKeyPaths: [AnyKeyPath] {
        running.withLock { Array($0.keys) }
    }

    /// Cancels every run.
    func cancelAll() {
        let tasks = running.withLock { running in
            defer { running.removeAll() }
            return running.values.compactMap(\.task)
        }
        for task in tasks { task.cancel() }
    }
}

extension Store {
    /// Runs `operation` and moves the `Async` value at `keyPath` through loading to success or
    /// failure: MvRx's `execute`.
    ///
    /// ```swift
    /// $state.execute(\.profile) { try await api.profile() }
    /// ```
    ///
    /// 1. The value becomes `.loading(previous:)`, keeping the latest value.
    /// 2. `operation` runs in a task.
    /// 3. Its result becomes `.success(value)`, or `.failure(failure, previous:)`.
    ///
    /// Executing again for the same key path cancels the previous run, whose result is then
    /// dropped, as is an error thrown because of that cancellation.
    ///
    /// Like `Task { }`, the work takes the isolation of the code that calls `execute`: called from
    /// main-actor code, `operation` starts on the main actor and the result commits there, so a
    /// main-actor app observes every change `execute` makes on the main actor. Called from
    /// nonisolated code, it runs on Swift's concurrency pool.
    ///
    /// - Parameters:
    ///   - keyPath: The `Async` value to move.
    ///   - isolation: Where the task runs and commits; the caller's, by default.
    ///   - operation: The work.
    /// - Returns: The task running `operation`; cancelling it drops its result and leaves the value
    ///   loading: once `cancel()` has returned, the result is not committed (a commit under way
    ///   when it is called either lands before it returns or not at all).
    @discardableResult
    public func execute<Value: Sendable>(
        _ keyPath: any WritableKeyPath<State, Async<Value>> & Sendable,
        isolation: isolated (any Actor)? = #isolation,
        @_inheritActorContext _ operation: @escaping @Sendable () async throws -> Value
    ) -> Task<Void, Never> {
        let storage = self.storage
        return storage.executions.start(keyPath) { generation in
            storage.mutate(
                { state in state[keyPath: keyPath] = .loading(previous: state[keyPath: keyPath].value) },
                // A run that another thread's replaced before this commit leaves the value to it.
                committingIf: { storage.executions.isCurrent(keyPath, generation) })
        } _: { generation in
            Task {
                // Capturing the isolated parameter isolates the task to it (SE-0420).
                _ = isolation
                defer { storage.executions.finish(keyPath, generation) }
                let result: Async<Value>
                do {
                    result = .success(try await operation())
                } catch {
                    guard !Task.isCancelled else { return }
                    result = .failure(AsyncFailure(error), previous: nil)
                }
                storage.mutate(
                    { state in
                        // A newer run that started meanwhile wins: its start commits, so this body
                        // runs again and sees it.
                        guard storage.executions.isCurrent(keyPath, generation) else { return }
                        if case .failure(let failure, _) = result {
                            state[keyPath: keyPath] = .failure(failure, previous: state[keyPath: keyPath].value)
                        } else {
                            state[keyPath: keyPath] = result
                        }
                    },
                    // Asked under the store's lock as the result commits: once `cancel()` has
                    // returned, the result cannot land.
                    committingIf: { !Task.isCancelled })
            }
        }
    }
}
