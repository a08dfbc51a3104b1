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

    /// Whether this is the process's main thread. Apple platforms ask `pthread_main_np()`; Linux
    /// compares the thread's kernel id with the process id, which the main thread's id equals.
    /// `gettid` is looked up at run time because not every C library's Swift module declares it
    /// (glibc ≥ 2.30 and musl export it).
    private static var isMainThread: Bool {
        #if canImport(Darwin)
        pthread_main_np() != 0
        #else
        if let gettid = threadID { gettid() == getpid() } else { false }
        #endif
    }

    #if !canImport(Darwin)
    private typealias GetThreadID = @convention(c) () -> pid_t
    private static let threadID: GetThreadID? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "gettid") else { return nil }
        return unsafeBitCast(symbol, to: GetThreadID.self)
    }()
    #endif
}
