/// What makes an optimistic read-modify-write (a store's `mutate`, a `Referred`'s `mutate`)
/// commit after a bounded number of runs, however busy the other writers are.
///
/// An optimistic `mutate` runs its body on a copy, without any lock, and commits only if no
/// other write landed meanwhile; otherwise it runs the body again. Writers that never pause could
/// make it run forever (a 2 ms body against a write every 50 µs never committed). So after
/// ``optimisticRuns`` lost runs, the `mutate` becomes *irrevocable*:
/// 1. it takes the process's irrevocable turn (one irrevocable run at a time in the process;
///    nested ones on the same thread take it again), then the value's gate, and marks the value
///    as gated by its thread, under the value's own lock;
/// 2. every other writer of that value that finds it gated waits for the gate (it takes and
///    releases the gate's mutex, without holding the value's lock) and then tries again;
/// 3. the body runs once more, with nobody able to commit in between, and commits.
///
/// So an irrevocable run is never lost: the only writer that could land on its value meanwhile is
/// another irrevocable body, and there is none. One turn for the whole process is what keeps that
/// true when bodies write each other's values (two irrevocable bodies, each writing the other's
/// value, would otherwise either wait for each other's gate, a deadlock, or go through and lose
/// each other's run, over and over: a livelock). It costs nothing while no `mutate` is
/// contended, and serializes only the rare runs that lost ``optimisticRuns`` times.
///
/// No lock of the value is held while a body runs; the gate and the turn are mutexes held only by
/// the irrevocable run, which never waits for anyone (only its own thread gates values). Every
/// `mutate` therefore runs its body at most ``optimisticRuns`` + 1 times.
///
/// The one rule this adds for user code: an irrevocable body must not wait for another thread
/// that writes to a store or `@Ref` (a `DispatchQueue.main.sync` while the main thread writes to
/// the store). Bodies should only compute the new value, as the `mutate` docs say.
@usableFromInline
package final class CommitGate: Sendable {
    /// Lost runs before a `mutate` becomes irrevocable.
    @usableFromInline
    package static let optimisticRuns = 4

    /// Held by the irrevocable run, for as long as its body runs.
    private let mutex = ConditionLock()

    /// The process's irrevocable turn: held by the thread running irrevocable bodies, from its
    /// outermost one's start to its commit.
    private static let turn = ConditionLock()

    @usableFromInline
    package init() {}

    /// Takes the gate, for an irrevocable run: first the process's turn (unless this thread
    /// holds it, for an outer irrevocable run), then the value's gate.
    @usableFromInline
    package func enter() {
        if Self.irrevocableDepth == 0 { Self.turn.lock() }
        mutex.lock()
        Self.irrevocableDepth += 1
    }

    /// Releases the gate after the irrevocable run committed, and the turn after the outermost.
    @usableFromInline
    package func leave() {
        Self.irrevocableDepth -= 1
        mutex.unlock()
        if Self.irrevocableDepth == 0 { Self.turn.unlock() }
    }

    /// Waits until the irrevocable run holding the gate has committed. Call without any lock.
    @usableFromInline
    package func waitForTheIrrevocableRun() {
        mutex.lock()
        mutex.unlock()
    }

    /// Whether a writer on this thread must wait for a value gated by `owner`: by another
    /// thread, which runs the process's only irrevocable bodies.
    @inlinable
    package static func mustWait(forGateOwner owner: UInt) -> Bool {
        owner != 0 && owner != ThreadIdentity.current
    }

    private static let depthKey: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key, nil)
        precondition(status == 0, "pthread_key_create failed: \(status)")
        return key
    }()

    /// How many irrevocable runs this thread is inside (nested `mutate`s of other values).
    private static var irrevocableDepth: Int {
        get { pthread_getspecific(depthKey).map { Int(bitPattern: $0) } ?? 0 }
        set { pthread_setspecific(depthKey, UnsafeRawPointer(bitPattern: newValue)) }
    }
}
