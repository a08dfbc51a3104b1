import ComposeEmitters
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
/// `withState`. One runner at a time takes the next mutation if there is one, otherwise the
/// next read; so every pending mutation runs before any pending read, mutations run in the order
/// they were queued, and a read sees every mutation queued before it.
@usableFromInline
final class StateQueue<State: AnyState>: Sendable {
    private struct Pending {
        var mutations: Deque<@Sendable (inout State) -> Void> = []
        var reads: Deque<@Sendable (State) -> Void> = []
        var isRunning = false
    }

    private enum Job {
        case mutation(@Sendable (inout State) -> Void)
        case read(@Sendable (State) -> Void)
    }

    private let pending = LockedState(Pending())
    private let schedule: @Sendable (_ work: @escaping @Sendable () -> Void) -> Void

    @usableFromInline
    init(schedule: @escaping @Sendable (_ work: @escaping @Sendable () -> Void) -> Void) {
        self.schedule = schedule
    }

    /// Runs queued work on a detached task of Swift's concurrency pool.
    @usableFromInline
    static func background(_ work: @escaping @Sendable () -> Void) {
        Task.detached { work() }
    }

    /// The queued `setState` and `withState` work not yet done, the running piece included.
    var pendingCount: Int {
        pending.withLock { $0.mutations.count + $0.reads.count + ($0.isRunning ? 1 : 0) }
    }

    func enqueue(mutation: @escaping @Sendable (inout State) -> Void, on storage: StoreStorage<State>) {
        let start = pending.withLock { pending in
            pending.mutations.append(mutation)
            return Self.claim(&pending)
        }
        if start { schedule { self.run(on: storage) } }
    }

    func enqueue(read: @escaping @Sendable (State) -> Void, on storage: StoreStorage<State>) {
        let start = pending.withLock { pending in
            pending.reads.append(read)
            return Self.claim(&pending)
        }
        if start { schedule { self.run(on: storage) } }
    }

    private static func claim(_ pending: inout Pending) -> Bool {
        guard !pending.isRunning else { return false }
        pending.isRunning = true
        return true
    }

    private func run(on storage: StoreStorage<State>) {
        while true {
            let job: Job? = pending.withLock { pending in
                if let mutation = pending.mutations.popFirst() { return .mutation(mutation) }
                if let read = pending.reads.popFirst() { return .read(read) }
                pending.isRunning = false
                return nil
            }
            switch job {
            case .mutation(let mutation)?: storage.mutate { mutation(&$0) }
            case .read(let read)?: read(storage.read())
            case nil: return
            }
        }
    }
}
