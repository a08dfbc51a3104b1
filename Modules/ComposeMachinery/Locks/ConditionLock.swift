/// A lock with a condition to wait on: for the places where a thread must block until another
/// thread is done (for example a service being created elsewhere, an irrevocable `mutate`, a relay's stop
/// waiting for a call of its handler in progress).
///
/// ``LockedState`` is the lock for state; this one is for waiting. It wraps `pthread_mutex_t`
/// and `pthread_cond_t` (visible to ThreadSanitizer on every platform).
@usableFromInline
package final class ConditionLock: @unchecked Sendable {  // The mutex is the state.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    package init() {
        var status = pthread_mutex_init(mutex, nil)
        precondition(status == 0, "pthread_mutex_init failed: \(status)")
        status = pthread_cond_init(condition, nil)
        precondition(status == 0, "pthread_cond_init failed: \(status)")
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Takes the lock; waits while another thread holds it.
    package func lock() {
        pthread_mutex_lock(mutex)
    }

    package func unlock() {
        pthread_mutex_unlock(mutex)
    }

    /// Releases the lock until another thread calls ``broadcast()``, then takes it again. Call
    /// with the lock held, in a loop that checks what it waits for.
    package func wait() {
        pthread_cond_wait(condition, mutex)
    }

    /// Wakes every waiting thread. Call with the lock held.
    package func broadcast() {
        pthread_cond_broadcast(condition)
    }

    /// Runs `body` with the lock held.
    package func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock()
        defer { unlock() }
        return try body()
    }
}
