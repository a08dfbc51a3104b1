import Foundation

/// A recording in progress, as a value: the steps kept, the latest step (whose checkpoint is not
/// known until the next input), and what was dropped to stay under the size limit.
///
/// Its transitions are pure: the recorder reads the tree (user code: encoding a state) before it
/// takes its lock, then applies one transition under the lock.
struct SessionBuffer {
    typealias Step = SessionRecording.Step
    typealias Checkpoint = SessionRecording.Checkpoint

    let root: String
    let maximumBytes: Int
    /// The completed steps, oldest first, each with its line in the file.
    private(set) var kept: [(step: Step, line: Data)] = []
    private(set) var keptBytes = 0
    private(set) var dropped: SessionRecording.Dropped?
    /// The bytes of the header line and of the dropped marker.
    private let headerBytes: Int
    private var markerBytes = 0
    /// The latest step: its input and results; its checkpoint comes with the next input.
    private(set) var latest: Step
    /// The whole state at the end of the last completed step.
    private(set) var state = Checkpoint()
    private(set) var isStopped = false

    /// - Parameter start: The tree's whole state when the recording starts.
    init(root: String, maximumBytes: Int, start: Checkpoint = Checkpoint()) {
        self.root = root
        self.maximumBytes = maximumBytes
        headerBytes = SessionRecording(root: root, maximumBytes: maximumBytes, steps: []).jsonLines.count
        latest = Step(number: 0, time: .zero, input: nil, checkpoint: Checkpoint())
        latest.start = start
    }

    /// The file's size: header, marker and kept steps (the latest step not included).
    var bytes: Int {
        headerBytes + markerBytes + keptBytes
    }

    /// An input came at `time`, when the tree's state was `whole`: the latest step is complete.
    mutating func begin(_ input: SessionRecording.Input, at time: Duration, stateBefore whole: Checkpoint) {
        guard !isStopped else { return }
        complete(with: whole)
        latest = Step(number: latest.number + 1, time: time, input: input, checkpoint: Checkpoint())
    }

    /// A service returned `result` while the latest step is the latest.
    mutating func record(_ result: SessionRecording.ServiceResult) {
        guard !isStopped else { return }
        latest.results.append(result)
    }

    /// The recording stops at `time`, with the tree's state `whole`: the latest step completes,
    /// followed by an `end` step.
    mutating func stop(at time: Duration, state whole: Checkpoint) {
        guard !isStopped else { return }
        begin(.end, at: time, stateBefore: whole)
        complete(with: whole)
        isStopped = true
    }

    /// The recording: as it was stopped, or as if it stopped now (at `time`, with `whole`).
    func recording(endingAt time: Duration, state whole: @autoclosure () -> Checkpoint) -> SessionRecording {
        var ended = self
        ended.stop(at: time, state: whole())
        return SessionRecording(
            root: root, maximumBytes: maximumBytes, dropped: ended.dropped, steps: ended.kept.map(\.step))
    }

    private mutating func complete(with whole: Checkpoint) {
        var step = latest
        step.checkpoint = whole.changes(since: state)
        state = whole
        let line = SessionRecording.line(step)
        kept.append((step, line))
        keptBytes += line.count
        trim()
    }

    /// Drops the oldest steps while the file is over its limit, down to three quarters of it
    /// (so that a long session drops in batches), keeping at least the latest completed step.
    /// The marker carries the whole state after the last dropped step.
    private mutating func trim() {
        guard bytes > maximumBytes else { return }
        let target = maximumBytes / 4 * 3
        var count = 0
        var through = dropped?.checkpoint ?? Checkpoint()
        while kept.count - count > 1, bytes > target {
            // Measured again after each batch: the marker grows with the state it carries.
            while kept.count - count > 1, bytes > target {
                let (step, line) = kept[count]
                count += 1
                keptBytes -= line.count
                through = through.applying(step.checkpoint)
                dropped = SessionRecording.Dropped(steps: step.number + 1, time: step.time, checkpoint: through)
            }
            markerBytes = dropped.map { SessionRecording.line(["dropped": $0]).count } ?? 0
        }
        kept.removeFirst(count)
    }
}
