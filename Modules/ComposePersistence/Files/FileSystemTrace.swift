import ComposeMachinery

/// The file-system calls ``AtomicFile`` made, in order, as a test records them.
///
/// What makes a save durable is the order of its calls (the data flushed before the rename
/// that publishes it, the directory flushed after), and no file shows that order afterwards. Each
/// call is recorded by the function that makes it, once it succeeded, for the task that set
/// ``current``; with no trace set, recording costs a task-local read per call.
package final class FileSystemTrace: Sendable {
    /// One call that succeeded.
    package enum Call: Equatable, Sendable {
        /// A file created, exclusively (a temporary file).
        case create(String)
        /// All of a file's bytes written.
        case write(String)
        /// A file or directory flushed to disk (`fsync`, or `F_FULLFSYNC` on Apple platforms).
        case synchronize(String)
        case close(String)
        case rename(from: String, to: String)
    }

    /// The trace that the current task's calls are recorded in.
    @TaskLocal package static var current: FileSystemTrace?

    private let recorded = LockedState<[Call]>([])

    package init() {}

    /// The calls recorded so far, in the order they were made.
    package var calls: [Call] {
        recorded.withLock { $0 }
    }

    static func record(_ call: @autoclosure () -> Call) {
        guard let trace = current else { return }
        let call = call()
        trace.recorded.withLock { $0.append(call) }
    }
}
