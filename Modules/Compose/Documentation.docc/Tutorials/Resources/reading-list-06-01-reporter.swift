import Compose
import Foundation

/// Records the session from launch, so that a tester who hits a bug can send what they did. The
/// recording stays under half a megabyte: past that, the oldest steps go first.
final class BugReporter: Sendable {
    private let recorder: SessionRecorder

    init(host: ComponentHost<ReadingListApp>) {
        recorder = SessionRecorder(host, maximumBytes: 512 * 1024)
    }

    /// Writes the session so far, for the tester to attach to the report.
    func writeReport(to file: URL) throws {
        try recorder.recording.write(to: file)
    }
}
