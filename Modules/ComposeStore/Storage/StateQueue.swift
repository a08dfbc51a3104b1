import ComposeEmitters
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
/// `withState`. One piece runs at a time, and each time the next mutation if there is one,
/// otherwise the next read; so every pending mutation runs before any pending read, mutations run
/// in the order they were queued, and a read sees every mutation queued before it.
///
/// Each piece runs where its closure was written: a nonisolated piece on a background task (or
/// where the scheduler says), a main-actor piece on the main actor, an actor's piece on that actor
/// (see ``IsolatedHandler``). Running is a baton: the one drain that holds it runs pieces in order
/// where it is; a piece that must run elsewhere takes the baton with it to a task on its actor,
/// which runs it and goes on with the rest there. A drain on the main actor runs the nonisolated
/// pieces after it on the main actor too.
@usableFromInline
final class StateQueue<State: AnyState>: Sendable {
    private struct Piece {
        /// The closure, called synchronously where its isolation holds (see `AssumedIsolation`).
        enum Work {
            case mutation(AssumedIsolationInout<State>)
            case read(AssumedIsolation<State>)
        }

        let work: Work
        /// Where the piece was queued: the scope's context (a tree's services and clock) and
        /// whether a delivery queued it, which a piece running later, on another task, keeps.
        let context = ObservationScope.currentHandlerContext
        let isConsequence = EventLog.isConsequence

        /// Where the piece must run; `nil` for anywhere.
        var isolation: (any Actor)? {
            switch work {
            case .mutation(let mutation): mutation.isolation
            case .read(let read): read.isolation
            }
        }

        var isMainActor: Bool { isolation.map { $0 === MainActor.shared } ?? false }

        /// Whether the piece may run on the current thread without a hop.
        var runsHere: Bool {
            isolation == nil || (isMainActor && MainActorContext.isCurrent)
        }

        func run(on storage: StoreStorage<State>) {
            let call = {
                switch work {
                case .mutation(let mutation): storage.mutate { mutation.callAssumingIsolation(&$0) }
                case .read(let read): read.callAssumingIsolation(storage.read())
                }
            }
            let inContext = { if let context { context.around(call) } else { call() } }
            if isConsequence { EventLog.alwaysAsConsequence(inContext) } else { inContext() }
        }
    }

    private struct Pending {
        var mutations: Deque<Piece> = []
        var reads: Deque<Piece> = []
        /// Pieces taken by the drain and not done yet.
        var running = 0
        /// Whether a drain holds the baton (running, scheduled, or on its way to an actor).
        var isDraining = false
    }

    private let pending = LockedState(Pending())
    private let schedule: @Sendable (_ work: @escaping @Sendable () -> Void) -> Void
    /// Weak, without giving the store a side table (see `LightWeakReference`).
    private let owner = LockedState<LightWeakReference<StoreStorage<State>>?>(nil)

    @usableFromInline
    init(schedule: @escaping @Sendable (_ work: @escaping @Sendable () -> Void) -> Void) {
        self.schedule = schedule
    }

    /// Runs queued work on `storage`, which owns this queue (and is held weakly: work still queued
    /// when the store goes away is dropped).
    @usableFromInline
    func start(on storage: StoreStorage<State>) {
        owner.withLock { $0 = LightWeakReference(storage) }
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

    func enqueue(mutation: @escaping @isolated(any) @Sendable (inout State) -> Void) {
        let piece = Piece(work: .mutation(AssumedIsolationInout(mutation)))
        let startsDrain = pending.withLock { pending in
            pending.mutations.append(piece)
            return Self.takeBaton(&pending)
        }
        if startsDrain { schedule { self.drain() } }
    }

    func enqueue(read: @escaping @isolated(any) @Sendable (State) -> Void) {
        let piece = Piece(work: .read(AssumedIsolation(read)))
        let startsDrain = pending.withLock { pending in
            pending.reads.append(piece)
            return Self.takeBaton(&pending)
        }
        if startsDrain { schedule { self.drain() } }
    }

    private static func takeBaton(_ pending: inout Pending) -> Bool {
        guard !pending.isDraining else { return false }
        pending.isDraining = true
        return true
    }

    /// The next piece (a mutation first), or `nil`, giving up the baton, when none is left.
    private func takeNext() -> Piece? {
        pending.withLock { pending in
            if let mutation = pending.mutations.popFirst() {
                pending.running += 1
                return mutation
            }
            if let read = pending.reads.popFirst() {
                pending.running += 1
                return read
            }
            pending.isDraining = false
            return nil
        }
    }

    private func finish() {
        pending.withLock { $0.running -= 1 }
    }

    /// Runs pieces while the baton is here; hands it to a task on a piece's actor when that piece
    /// cannot run here.
    private func drain() {
        while let piece = takeNext() {
            guard piece.runsHere else {
                hop(with: piece)
                return
            }
            run(piece)
        }
    }

    private func run(_ piece: Piece) {
        defer { finish() }
        guard let storage = owner.withLock({ $0 })?.retainIfAlive() else { return }
        piece.run(on: storage)
    }

    private func hop(with piece: Piece) {
        if piece.isMainActor {
            Task { @MainActor in
                self.run(piece)
                self.drain()
            }
        } else if let isolation = piece.isolation {
            Task {
                await Self.run(on: isolation) { self.run(piece) }
                self.drain()
            }
        }
    }

    /// Runs `body` isolated to `actor`.
    private static func run(on actor: isolated any Actor, _ body: @Sendable () -> Void) {
        body()
    }
}
