import Foundation

/// A recorded session: the inputs a component tree received from outside, in order, with the
/// state of its stores and routers after each. Made by a ``SessionRecorder``; replayed by
/// ComposeTesting's `SessionReplay`; shown by the `compose-session` tool.
///
/// ## The file
/// JSON Lines (one JSON object per line, UTF-8), schema version ``currentVersion``:
///
/// 1. The header: `{"format":"compose-session","version":1,"root":"NotesApp","maximumBytes":1048576}`.
/// 2. When the oldest steps were dropped to keep the recording under its size, a marker:
///    `{"dropped":{"steps":120,"time":61.5,"checkpoint":{...}}}`, with the whole state after the
///    last dropped step.
/// 3. One line per ``Step``, in order: `{"step":3,"time":1.25,"input":{...},"results":[...],"checkpoint":{...}}`.
///    Step 0 has no input, the tree as the recording found it (`start`), and the whole state
///    before the first input; later checkpoints hold what changed.
///
/// Members a reader does not know are ignored; a version it does not read is refused, naming
/// the version (``FormatError``).
public struct SessionRecording: Sendable, Equatable {
    /// The schema version this Compose writes and reads.
    public static let currentVersion = 1
    /// The schema versions this Compose reads.
    public static let readableVersions = 1...1
    /// The header's `format`.
    public static let format = "compose-session"

    /// The file's schema version.
    public var version: Int
    /// The root component's type name.
    public var root: String
    /// The size the recording was kept under, in bytes of its file.
    public var maximumBytes: Int
    /// The steps dropped to stay under ``maximumBytes``, if any.
    public var dropped: Dropped?
    /// The steps kept, in order.
    public var steps: [Step]

    /// A recording of a tree whose root is of type `root`, kept under `maximumBytes`.
    public init(version: Int = currentVersion, root: String, maximumBytes: Int, dropped: Dropped? = nil, steps: [Step]) {
        self.version = version
        self.root = root
        self.maximumBytes = maximumBytes
        self.dropped = dropped
        self.steps = steps
    }

    /// The oldest steps, dropped so that the recording stays under its size.
    public struct Dropped: Sendable, Equatable, Codable {
        /// How many steps were dropped (steps 0 to `steps - 1`).
        public var steps: Int
        /// The time of the last dropped step.
        public var time: Duration
        /// The whole state of the tree after the last dropped step: where the kept steps start.
        public var checkpoint: Checkpoint

        /// `steps` steps dropped, the last at `time`, leading to `checkpoint`.
        public init(steps: Int, time: Duration, checkpoint: Checkpoint) {
            self.steps = steps
            self.time = time
            self.checkpoint = checkpoint
        }

        private enum CodingKeys: String, CodingKey { case steps, time, checkpoint }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            steps = try container.decode(Int.self, forKey: .steps)
            guard steps > 0 else {
                throw DecodingError.dataCorruptedError(forKey: .steps, in: container, debugDescription: "\(steps) steps dropped")
            }
            time = try Duration(recordedSeconds: container.decode(Double.self, forKey: .time), in: container, key: .time)
            checkpoint = try container.decode(Checkpoint.self, forKey: .checkpoint)
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(steps, forKey: .steps)
            try container.encode(time.recordedSeconds, forKey: .time)
            try container.encode(checkpoint, forKey: .checkpoint)
        }
    }

    /// The state the recording starts from: the tree when it started (step 0's ``Step/start``),
    /// or the state the dropped steps led to.
    public var startingState: Checkpoint {
        dropped?.checkpoint ?? steps.first.map { $0.start ?? $0.checkpoint } ?? Checkpoint()
    }

    /// The whole state after each kept step, in order: each checkpoint's changes applied to the
    /// state before.
    public var states: [Checkpoint] {
        var state = dropped?.checkpoint ?? Checkpoint()
        return steps.map { step in
            state = state.applying(step.checkpoint)
            return state
        }
    }
}

// MARK: - Reading and writing

extension SessionRecording {
    /// A file that is not a session recording this Compose reads.
    public struct FormatError: Error, Sendable, Equatable, CustomStringConvertible {
        /// The 1-based line the problem is on.
        public var line: Int
        /// What is wrong.
        public var reason: String

        public var description: String {
            "Not a readable session recording (line \(line)): \(reason)"
        }
    }

    private struct Header: Codable {
        var format: String
        var version: Int
        var root: String
        var maximumBytes: Int
    }

    private struct DroppedLine: Codable {
        var dropped: Dropped
    }

    /// Reads a recording from its JSON Lines.
    ///
    /// - Throws: ``FormatError`` naming the line: not a recording, a schema version this
    ///   Compose does not read (named), or a line that does not decode.
    public init(jsonLines data: Data) throws(FormatError) {
        let lines = data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
            .enumerated().filter { !$0.element.allSatisfy { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\r") } }
        guard let (_, first) = lines.first else { throw FormatError(line: 1, reason: "the file is empty") }
        let decoder = JSONDecoder()
        let header: Header
        do {
            header = try decoder.decode(Header.self, from: Data(first))
        } catch {
            throw FormatError(line: 1, reason: "the first line is not a compose-session header: \(error)")
        }
        guard header.format == Self.format else {
            throw FormatError(
                line: 1, reason: "its format is \(header.format.debugDescription), not \(Self.format.debugDescription)")
        }
        guard Self.readableVersions.contains(header.version) else {
            throw FormatError(
                line: 1,
                reason:
                    "it was written with schema version \(header.version); this Compose reads version\(Self.readableVersions.count == 1 ? "" : "s") \(Self.readableVersions.map(String.init).joined(separator: ", "))"
            )
        }
        var dropped: Dropped?
        var steps: [Step] = []
        for (index, line) in lines.dropFirst() {
            let bytes = Data(line)
            do {
                if steps.isEmpty, dropped == nil, let marker = try? decoder.decode(DroppedLine.self, from: bytes) {
                    dropped = marker.dropped
                    continue
                }
                let step = try decoder.decode(Step.self, from: bytes)
                let expected = steps.last.map { $0.number + 1 } ?? dropped?.steps ?? 0
                guard step.number == expected, step.number < Int.max else {
                    throw FormatError(line: index + 1, reason: "step \(step.number) comes where step \(expected) should")
                }
                steps.append(step)
            } catch let error as FormatError {
                throw error
            } catch {
                throw FormatError(line: index + 1, reason: "the line is not a step: \(error)")
            }
        }
        self.init(version: header.version, root: header.root, maximumBytes: header.maximumBytes, dropped: dropped, steps: steps)
    }

    /// Reads the recording in the file at `url`.
    ///
    /// - Throws: The file's read error, or ``FormatError``.
    public init(contentsOf url: URL) throws {
        try self.init(jsonLines: Data(contentsOf: url))
    }

    /// The recording as JSON Lines, keys sorted, each line ending with a newline.
    public var jsonLines: Data {
        var data = Self.line(Header(format: Self.format, version: version, root: root, maximumBytes: maximumBytes))
        if let dropped { data += Self.line(DroppedLine(dropped: dropped)) }
        for step in steps { data += Self.line(step) }
        return data
    }

    /// Writes ``jsonLines`` to `url`, replacing the file atomically.
    public func write(to url: URL) throws {
        try jsonLines.write(to: url, options: .atomic)
    }

    /// One line of the file: `value` as compact JSON with its keys sorted, and a newline.
    static func line(_ value: some Encodable) -> Data {
        // Every type written here holds strings, finite numbers and `SessionValue`s: it always
        // encodes.
        let text = (try? SessionValueEncoder().encode(value))?.jsonText ?? "{}"
        return Data((text + "\n").utf8)
    }
}
