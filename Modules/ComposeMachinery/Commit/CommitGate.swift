/// What makes an optimistic read-modify-write (a store's `mutate`, a `Referred`'s `mutate`)
/// commit after a bounded number of runs, however busy the other writers are.
///
/// An optimistic `mutate` runs its body on a copy, without any lock, and commits only if no
/// other write landed meanwhile; otherwise it runs the body again. Writers that never pause could
/// make it run forever (a 2 ms body against a write every 50 µs never committed). So after
/// ``optimisticRuns`` lost runs, the `mutate` becomes *irrevocable*:
/// 1. it takes the gate (one irrevocable `mutate` per guarded value at a time) and marks the
///    value as gated by its thread, under the value's own lock;
/// 2. every other writer of that value that finds it gated waits for the gate (it takes and
///    releases the gate's mutex, without holding the value's lock) and then tries again;
/// 3. the body runs once more, with nobody able to commit in between, and commits.
///
/// No lock of the value is held while the body runs; the gate is a separate mutex, held only
/// by the irrevocable `mutate`. A thread that is itself running an irrevocable body never waits
/// for another value's gate (two irrevocable bodies writing to each other's values would
/// otherwise deadlock): its write goes through, and the irrevocable `mutate` it lands on runs
/// its body once more, still gated. Such re-runs come only from other irrevocable bodies, each
/// of which runs once, so the number of runs stays bounded.
///
/// The one rule this adds for user code: an irrevocable body must not wait for another thread
/// that writes to the same value (a `DispatchQueue.main.sync` while the main thread writes to
/// the store). Bodies should only compute the new value, as the `mutate` docs say.
@usableFromInline
package final class CommitGate: Sendable {
    /// Lost runs before a `mutate` becomes irrevocable.
    @usableFromInline
    package static let optimisticRuns = 4

    /// Held by the irrevocable run, for as long as its body runs.
    private let mutex = ConditionLock()

    @usableFromInline
    package init() {}

    /// Takes the gate, for an irrevocable run; waits while another one holds it.
    @usableFromInline
    package func enter() {
        mutex.lock()
        Self.irrevocableDepth += 1
    }

    /// Releases the gate after the irrevocable run committed.
    @usableFromInline
    package func leave() {
        Self.irrevocableDepth -= 1
        mutex.unlock()
    }

    /// Waits until the irrevocable run holding the gate has committed. Call without any lock.
    @usableFromInline
    package func waitForTheIrrevocableRun() {
        mutex.lock()
        mutex.unlock()
    }

    /// Whether a writer on this thread must wait for a value gated by `owner` (see above).
    @inlinable
    package static func mustWait(forGateOwner owner: UInt) -> Bool {
        owner != 0 && owner != ThreadIdentity.current && !isRunningIrrevocableBody
    }

    /// Whether this thread is running an irrevocable body.
    @usableFromInline
    static var isRunningIrrevocableBody: Bool {
        irrevocableDepth > 0
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
