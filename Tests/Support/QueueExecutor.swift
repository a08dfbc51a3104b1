import Dispatch

/// A serial executor on a dispatch queue of its own, for an actor a test keeps busy or whose
/// work must not wait for Swift's cooperative pool (one thread per core, which other tests of the
/// process may hold).
public final class QueueExecutor: SerialExecutor {
    private let queue = DispatchQueue(label: "QueueExecutor")

    public init() {}

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedSerialExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }
}
