import Clocks
import Compose
import ComposeMachinery
import ComposeRouting
import Foundation

/// Plays a session recorded by `SessionRecorder` against a fresh tree, and finds the first step
/// where the app now behaves differently: a bug report that is a test.
///
/// ```swift
/// @Test func reportedBug() async throws {
///     let replay = try SessionReplay(contentsOf: Bundle.module.url(forResource: "bug-142", withExtension: "jsonl")!)
///     await replay.run(NotesApp(), navigator: NotesApp.navigator(for:))
/// }
/// ```
///
/// ## How it plays
/// The replay runs in a ``ComposeSandbox`` of its own, on a `TestClock`, and mounts the root with
/// a ``ComponentTester`` there (with the services `configure` sets). Services' results come
/// from the recording (see `SessionRecorder.result(named:_:)`), in the order they were recorded.
/// For each step, in order, it advances the clock to the step's time, at most 100 ms at a time
/// (letting debounces, timers and autosaves due by then run), compares every store's state and every router's stack with the
/// recording's checkpoint of the step before, then applies the step's input. After the last step
/// it compares once more. The first difference is reported with the step's number, its input,
/// and a diff of each store or router that differed.
///
/// A store is compared by what its state encodes (its `Codable` keys; `Redacted` fields as
/// `"<redacted>"`), or by its description if the state is not `Encodable`.
///
/// ## The starting state
/// With ``Start/recorded`` (the default), stores whose state differs from the recording's
/// starting state (the tree when it started, or the state after the steps it dropped) are set to it
/// first, when their state is `Decodable` (a `Redacted` field keeps its value): a tree that
/// restored saved data when it was recorded starts from that data. Routers are not set: a starting stack the fresh tree does not have is
/// a divergence at the start. ``Start/fresh`` compares the fresh tree as it is.
///
/// ## What cannot replay
/// A send whose value is not `Decodable` (or was not `Encodable`), a redacted send without a
/// substitute, a navigation other than a pop or a shorter `navigationPath`, and a deep link
/// without a navigator stop the replay at that step with a message saying so.
public struct SessionReplay: Sendable {
    /// The recording played.
    public let recording: SessionRecording

    /// How a replay starts.
    public enum Start: Sendable {
        /// From the recording's starting state: stores set to it.
        case recorded
        /// From the fresh tree as it mounts.
        case fresh
    }

    /// Replays `recording`.
    public init(_ recording: SessionRecording) {
        self.recording = recording
    }

    /// Replays the recording in the file at `url`.
    ///
    /// - Throws: The file's read error, or `SessionRecording.FormatError` (a schema version this
    ///   Compose does not read, named).
    public init(contentsOf url: URL) throws {
        recording = try SessionRecording(contentsOf: url)
    }

    /// Replays the recording in `jsonLines`, a file's text.
    public init(jsonLines: String) throws {
        recording = try SessionRecording(jsonLines: Data(jsonLines.utf8))
    }

    /// Plays the recording against a tree mounted from `root`, and fails the test at the first
    /// divergence, with its step, input and diff.
    ///
    /// - Parameters:
    ///   - root: Makes the root component (called in the replay's sandbox).
    ///   - configure: Replaces services, as ``ComponentTester`` does.
    ///   - navigator: The navigator deep links are opened with.
    ///   - substitutes: Values to use in place of redacted ones: a redacted emitter's, by its label
    ///     (or `component.emitter` path for an emitter without a label); a binding's write to a
    ///     `Redacted` field, by the store's name (`LogInComponent.state`), the value every redacted
    ///     field of the written state takes; a service result with redacted fields, by its name.
    ///   - start: Where the replay starts.
    ///   - isolation: Where the tree is mounted and driven: the caller's actor (the main actor for
    ///     a main-actor app's test), by default.
    ///   - fileID: Where a divergence is reported; the caller's file by default.
    ///   - filePath: Where a divergence is reported; the caller's file by default.
    ///   - line: Where a divergence is reported; the caller's line by default.
    ///   - column: Where a divergence is reported; the caller's column by default.
    public func run<Root: Component>(
        _ root: @autoclosure () -> Root,
        services configure: (inout Services) -> Void = { _ in },
        navigator: ((Root) -> Navigator)? = nil,
        substitutes: [String: any Sendable] = [:],
        start: Start = .recorded,
        isolation: isolated (any Actor)? = #isolation,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async {
        let divergence = await firstDivergence(
            root(), services: configure, navigator: navigator, substitutes: substitutes, start: start, isolation: isolation)
        if let divergence {
            TestLocation(fileID: fileID, filePath: filePath, line: line, column: column).fail(divergence.description)
        }
    }

    /// Plays the recording against a tree mounted from `root` and returns the first divergence,
    /// or `nil` if the app behaved as recorded. Fails no test. See
    /// ``run(_:services:navigator:substitutes:start:isolation:fileID:filePath:line:column:)``.
    public func firstDivergence<Root: Component>(
        _ root: @autoclosure () -> Root,
        services configure: (inout Services) -> Void = { _ in },
        navigator: ((Root) -> Navigator)? = nil,
        substitutes: [String: any Sendable] = [:],
        start: Start = .recorded,
        isolation: isolated (any Actor)? = #isolation
    ) async -> Divergence? {
        await withComposeSandbox(label: "SessionReplay(\(recording.root))", clock: .test, isolation: isolation) { sandbox in
            let results = ReplayedResults(recording, substitutes: substitutes)
            return await SessionTaps.current.replaying(from: results, isolation: isolation) {
                let tester = ComponentTester(root(), services: configure)
                defer { tester.host.unmount() }
                let player = Player(
                    recording: recording, tester: tester, clock: sandbox.testClock!, results: results,
                    navigator: navigator, substitutes: substitutes)
                return await player.play(start: start, isolation: isolation)
            }
        }
    }
}

/// The recorded results, handed out by name in the order they were recorded.
final class ReplayedResults: SessionResultSource, @unchecked Sendable {  // `state` under its lock.
    private struct State {
        var results: [String: [SessionRecording.ServiceResult]] = [:]
        var missing: [String] = []
        var problems: [String] = []
    }

    private let state: LockedState<State>
    private let substitutes: [String: any Sendable]

    init(_ recording: SessionRecording, substitutes: [String: any Sendable]) {
        self.substitutes = substitutes
        var results: [String: [SessionRecording.ServiceResult]] = [:]
        for step in recording.steps {
            for result in step.results { results[result.name, default: []].append(result) }
        }
        state = LockedState(State(results: results))
    }

    func nextResult(named name: String) -> SessionRecording.ServiceResult? {
        state.withLock { state in
            guard var left = state.results[name], !left.isEmpty else {
                state.missing.append(name)
                return nil
            }
            let next = left.removeFirst()
            state.results[name] = left
            return next
        }
    }

    func substitute(forResult name: String) -> Any? {
        substitutes[name]
    }

    func report(_ problem: String) {
        state.withLock { $0.problems.append(problem) }
    }

    /// The problems reported since the last call.
    func takeProblems() -> [String] {
        state.withLock { state in
            defer { state.problems = [] }
            return state.problems
        }
    }

    /// The names asked for that had no result left, since the last call.
    func takeMissing() -> [String] {
        state.withLock { state in
            defer { state.missing = [] }
            return state.missing
        }
    }

    /// The results never asked for, by name.
    var unused: [String: Int] {
        state.withLock { $0.results.filter { !$0.value.isEmpty }.mapValues(\.count) }
    }
}
