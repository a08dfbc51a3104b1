import CComposeShims
import Dispatch

/// Whether the current code runs isolated to the main actor, asked without stopping the program
/// (`MainActor.assumeIsolated` traps when the answer is no, and the main executor's
/// `isIsolatingCurrentContext()` answers `nil`).
@usableFromInline
package enum MainActorContext {
    /// `true` while running on the main dispatch queue, which is the main actor's executor on
    /// every platform Compose runs on, or on the process's main thread, which runs that queue
    /// whenever it drains it (so code running there cannot overlap a main-actor job).
    ///
    /// The main thread alone is not enough: a test runner or a program that calls
    /// `dispatchMain()` has the main queue drained by a worker thread, where main-actor code runs
    /// off the main thread.
    @usableFromInline
    package static var isCurrent: Bool {
        if isMainThread { return true }
        _ = installKey
        return DispatchQueue.getSpecific(key: key) != nil
    }

    private static let key = DispatchSpecificKey<Bool>()

    /// Marks the main queue, once, so that code running on it can recognise it.
    private static let installKey: Void = {
        DispatchQueue.main.setSpecific(key: key, value: true)
    }()

    /// Whether this is the process's main thread (`CComposeShims`' `compose_is_main_thread`:
    /// `pthread_main_np()` on Apple platforms; elsewhere the `gettid` system call compared with the
    /// process id, which the main thread's kernel id equals).
    ///
    /// Outside Apple platforms the answer is kept per thread (a thread-specific value: 1 for the
    /// main thread, 2 for any other), so a delivery to a main-actor handler pays two system calls
    /// once per thread, not on every value. A thread's answer never changes: it is the same
    /// thread. (A process forked by a thread other than the main one, and not exec'd, keeps that
    /// thread's "not main" in the child; Compose never forks without exec.)
    private static var isMainThread: Bool {
        #if canImport(Darwin)
        compose_is_main_thread()
        #else
        if let known = pthread_getspecific(answerKey) { return Int(bitPattern: known) == 1 }
        let isMain = compose_is_main_thread()
        pthread_setspecific(answerKey, UnsafeRawPointer(bitPattern: isMain ? 1 : 2))
        return isMain
        #endif
    }

    #if !canImport(Darwin)
    /// The key of each thread's answer; made once, never deleted.
    private static let answerKey: pthread_key_t = {
        var key = pthread_key_t()
        let created = pthread_key_create(&key, nil)
        precondition(created == 0, "Compose: pthread_key_create failed (\(created))")
        return key
    }()
    #endif
}
