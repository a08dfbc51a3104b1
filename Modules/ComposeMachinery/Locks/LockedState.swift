#if canImport(Darwin)
@usableFromInline typealias PlatformLock = os_unfair_lock
#else
@usableFromInline typealias PlatformLock = pthread_mutex_t
#endif

/// A value guarded by a lock: the one lock for state that every Compose module uses.
///
/// The state and the lock share one allocation. The lock is `os_unfair_lock` on Apple platforms
/// and `pthread_mutex_t` elsewhere, both visible to ThreadSanitizer (unlike
/// `Synchronization.Mutex` on Linux, which TSan cannot see and reports false races on).
///
/// Code inside `withLock` must not call out to user code, and must not block: handlers are always
/// called after the lock is released. (The places that must block until another thread is done
/// use ``ConditionLock``.) The usual shape is a state machine that returns an action under the
/// lock, performed by the caller afterwards. Copies share the same state and lock.
@usableFromInline
package struct LockedState<State>: @unchecked Sendable {
    @usableFromInline
    let storage: Storage

    /// Creates the guarded value.
    ///
    /// - Precondition: `State` takes memory (not `Void` or an empty struct): a zero-size state
    ///   shares its address with the lock, and ThreadSanitizer takes every access to it for a race
    ///   with the lock. Checked in debug builds; guard a count or a flag instead.
    /// - Complexity: One allocation.
    @inlinable
    package init(_ initial: State) {
        assert(
            MemoryLayout<State>.size > 0,
            "LockedState<\(State.self)>: a zero-size state shares its address with the lock; guard a value that takes memory")
        storage = Storage.create(initial)
    }

    /// Runs `body` with exclusive access to the state.
    ///
    /// - Parameter body: Reads or changes the state. It must not block, must not call user code
    ///   and must not take this lock again.
    /// - Returns: What `body` returns.
    @inlinable
    package func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        try storage.withLock(body)
    }

    @usableFromInline
    final class Storage: ManagedBuffer<State, PlatformLock> {
        @inlinable
        static func create(_ initial: State) -> Storage {
            let buffer = Self.create(minimumCapacity: 1) { _ in initial }
            buffer.withUnsafeMutablePointerToElements { lock in
                #if canImport(Darwin)
                lock.initialize(to: os_unfair_lock())
                #else
                var attributes = pthread_mutexattr_t()
                pthread_mutexattr_init(&attributes)
                #if DEBUG
                // Relocking from the owning thread is a bug in Compose: fail loudly in debug builds.
                pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ERRORCHECK))
                #endif
                let status = pthread_mutex_init(lock, &attributes)
                precondition(status == 0, "pthread_mutex_init failed: \(status)")
                pthread_mutexattr_destroy(&attributes)
                #endif
            }
            // `create(minimumCapacity:)` returns the dynamic subclass.
            return unsafeDowncast(buffer, to: Storage.self)
        }

        deinit {
            // ManagedBuffer destroys the header (the state) itself; the lock is ours.
            withUnsafeMutablePointerToElements { lock in
                #if !canImport(Darwin)
                pthread_mutex_destroy(lock)
                #endif
                lock.deinitialize(count: 1)
            }
        }

        @inlinable
        func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
            try withUnsafeMutablePointers { state, lock in
                #if canImport(Darwin)
                os_unfair_lock_lock(lock)
                defer { os_unfair_lock_unlock(lock) }
                #else
                let locked = pthread_mutex_lock(lock)
                assert(locked == 0, "pthread_mutex_lock failed: \(locked)")
                defer {
                    let unlocked = pthread_mutex_unlock(lock)
                    assert(unlocked == 0, "pthread_mutex_unlock failed: \(unlocked)")
                }
                #endif
                return try body(&state.pointee)
            }
        }
    }
}
