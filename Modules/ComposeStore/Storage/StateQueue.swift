import ComposeMachinery
import DequeModule

/// Where a store runs the work queued by `setState` and `withState`.
///
/// The default starts a detached task. Tests that need to control when queued work runs can
/// supply their own scheduler.
@_spi(Testing)
public struct StateQueueScheduler: Sendable {
    let schedule: @Sendable (_ work: @escaping @Sendable () -> Void) -> Void

    /// A scheduler that calls `schedule` with the work to run; it must run it exactly once.
    public init(_ schedule: @escaping @Sendable (_ work: @escaping @Sendable () -> Void) -> Void) {
        self.schedule = schedule
    }
}

/// Cyanic's and MvRx's two queues: mutations queued with `setState`, reads queued with
/// `withState`. A ``Relay`` runs one piece at a time on a background task (or where the
/// scheduler says), and each time takes the next mutation if there is one, otherwise the next
/// read; so every pending mutation runs before any pending read, mutations run in the order they
/// were queued, and a read sees every mutation queued before it.
@usableFromInline
final class StateQueue<State: AnyState>: Sendable {
    private struct Pending {
        var mutations: Deque<@Sendable (inout State) -> Void> = []
        var reads: Deque<@Sendable (State) -> Void> = []
        /// Pieces taken by the runner and not done yet.
        var running = 0
    }

    private enum Job {
        case mutation(@Sendable (inout State) -> Void)
        case read(@Sendable (State) -> Void)
    }

    private let pending = LockedState(Pending())
    /// One event per queued piece: the runner takes the most urgent piece each time.
    private let runner: Relay<Void>

    @usableFromInline
    init(schedule: @escaping @Sendable (_ work: @escaping @Sendable () -> Void) -> Void) {
        runner = Relay(running: .scheduled(schedule))
    }

    /// Starts running queued work on `storage`, which owns this queue.
    @usableFromInline
    func start(on storage: StoreStorage<State>) {
        runner.start { [weak storage, weak self] in
            guard let storage, let self else { return }
            self.runNext(on: storage)
        }
    }

    /// Runs queued work on a detached task of Swift's concurrency pool.
    @usableFromInline
    static func background(_ work: @escaping @Sendable () -> Void) {
        Task.detached { work() }
    }

    /// The queued `setState` and `withState` work not yet done, the running piece included.
    var pendingCount: Int {
        pending.withLock { $0.mutations.count + $0.reads.count + $0.running }
    }

    func enqueue(mutation: @escaping @Sendable (inout State) -> Void) {
        pending.withLock { $0.mutations.append(mutation) }
        runner.send(())
    }

    func enqueue(read: @escaping @Sendable (State) -> Void) {
        pending.withLock { $0.reads.append(read) }
        runner.send(())
    }

    private func runNext(on storage: StoreStorage<State>) {
        let job: Job? = pending.withLock { pending in
            if let mutation = pending.mutations.popFirst() {
                pending.running += 1
                return .mutation(mutation)
            }
            if let read = pending.reads.popFirst() {
                pending.running += 1
                return .read(read)
            }
            return nil
        }
        defer { if job != nil { pending.withLock { $0.running -= 1 } } }
        switch job {
        case .mutation(let mutation)?: storage.mutate { mutation(&$0) }
        case .read(let read)?: read(storage.read())
        case nil: return
        }
    }
}
