import Testing

@testable import Compose

/// The recording's transitions, as values: each step is completed by the state before the next
/// input, results join the latest step, and nothing changes once stopped.
@Suite struct SessionBufferTests {
    typealias Checkpoint = SessionRecording.Checkpoint

    static func state(_ count: Int, detail: Bool = false) -> Checkpoint {
        var stores: [String: SessionRecording.StoreState] = ["App.state": .value(.integer(Int64(count)))]
        if detail { stores["App/detail.state"] = .description("Detail") }
        return Checkpoint(stores: stores, routers: ["App.router": detail ? ["App/detail"] : []])
    }

    static let tap = SessionRecording.Input.send(.init(component: "App", emitter: "tap", label: nil, value: nil))

    @Test func eachStepHoldsWhatChangedUntilTheNextInput() {
        var buffer = SessionBuffer(root: "App", maximumBytes: 1 << 20)
        buffer.begin(Self.tap, at: .seconds(1), stateBefore: Self.state(0))
        buffer.record(.init(name: "api", value: .bool(true)))
        buffer.begin(Self.tap, at: .seconds(2), stateBefore: Self.state(1, detail: true))
        buffer.stop(at: .seconds(3), state: Self.state(1))
        let recording = buffer.recording(endingAt: .seconds(9), state: Self.state(99))
        #expect(recording.steps.map(\.number) == [0, 1, 2, 3])
        #expect(recording.steps.map(\.time) == [.zero, .seconds(1), .seconds(2), .seconds(3)])
        #expect(recording.steps[0].checkpoint == Self.state(0))
        #expect(recording.steps[1].results == [.init(name: "api", value: .bool(true))])
        #expect(
            recording.steps[1].checkpoint
                == Checkpoint(
                    stores: ["App.state": .value(.integer(1)), "App/detail.state": .description("Detail")],
                    routers: ["App.router": ["App/detail"]]))
        #expect(recording.steps[2].checkpoint == Checkpoint(routers: ["App.router": []], removed: ["App/detail.state"]))
        #expect(recording.steps[3].input == .end)
        #expect(recording.steps[3].checkpoint.isEmpty)
        #expect(recording.states.last == Self.state(1))
    }

    @Test func nothingChangesOnceStopped() {
        var buffer = SessionBuffer(root: "App", maximumBytes: 1 << 20)
        buffer.stop(at: .seconds(1), state: Self.state(0))
        let stopped = buffer.recording(endingAt: .seconds(5), state: Self.state(5))
        buffer.begin(Self.tap, at: .seconds(2), stateBefore: Self.state(1))
        buffer.record(.init(name: "late", value: .null))
        buffer.stop(at: .seconds(3), state: Self.state(2))
        #expect(buffer.recording(endingAt: .seconds(5), state: Self.state(5)) == stopped)
        #expect(stopped.steps.map(\.number) == [0, 1])
    }

    /// A recording read while running ends now, without stopping the buffer.
    @Test func readingWhileRunningDoesNotStop() {
        var buffer = SessionBuffer(root: "App", maximumBytes: 1 << 20)
        buffer.begin(Self.tap, at: .seconds(1), stateBefore: Self.state(0))
        let now = buffer.recording(endingAt: .seconds(2), state: Self.state(1))
        #expect(now.steps.map(\.input) == [nil, Self.tap, .end])
        #expect(!buffer.isStopped)
        buffer.begin(Self.tap, at: .seconds(3), stateBefore: Self.state(2))
        #expect(buffer.latest.number == 2)
    }

    /// The file stays under its size whatever the steps, keeping at least the latest one.
    @Test(arguments: [4096, 6000, 20_000])
    func theFileStaysUnderItsSize(maximum: Int) {
        var buffer = SessionBuffer(root: "App", maximumBytes: maximum)
        for index in 1...500 {
            buffer.begin(Self.tap, at: .milliseconds(index), stateBefore: Self.state(index, detail: index % 2 == 0))
            #expect(buffer.bytes <= maximum)
        }
        let recording = buffer.recording(endingAt: .seconds(1), state: Self.state(0))
        #expect(recording.dropped != nil)
        #expect(recording.steps.count > 1)
        #expect((recording.dropped?.steps ?? 0) + recording.steps.count == 502)
    }

    /// A state under the limit but over half of it: the marker (which holds the whole state) and
    /// the latest step (which holds what changed) together can be over the limit. Then, and only
    /// then, the file is over it: it holds the header, the marker and the latest step, nothing
    /// more. A recording written from it is as large as the buffer says.
    @Test func theFileIsOverItsSizeOnlyWithTheMarkerAndTheLatestStep() {
        let maximum = 4096
        var buffer = SessionBuffer(root: "App", maximumBytes: maximum)
        for index in 0..<20 {
            let text = String(repeating: Character(UnicodeScalar(UInt8(97 + index % 26))), count: 3_900)
            buffer.begin(Self.tap, at: .seconds(index), stateBefore: Checkpoint(stores: ["App.state": .value(.string(text))]))
            #expect(buffer.bytes <= maximum || buffer.kept.count == 1, "\(buffer.bytes) bytes in \(buffer.kept.count) steps")
            let written = SessionRecording(
                root: "App", maximumBytes: maximum, dropped: buffer.dropped, steps: buffer.kept.map(\.step))
            #expect(written.jsonLines.count == buffer.bytes)
        }
        #expect(buffer.bytes > maximum)  // the case this test is about happened
    }

    /// A single step larger than the limit is kept: the latest step is never dropped.
    @Test func aStepLargerThanTheLimitIsKept() {
        var buffer = SessionBuffer(root: "App", maximumBytes: 4096)
        let large = Checkpoint(stores: ["App.state": .value(.string(String(repeating: "x", count: 10_000)))])
        buffer.begin(Self.tap, at: .seconds(1), stateBefore: large)
        #expect(buffer.kept.map(\.step.number) == [0])  // over the limit alone, and kept
        #expect(buffer.dropped == nil)
        buffer.begin(Self.tap, at: .seconds(2), stateBefore: Self.state(0))
        #expect(buffer.kept.count == 1)
        #expect(buffer.kept.first?.step.number == 1)
        #expect(buffer.dropped?.checkpoint == large)

        // A large step after a small one: the small one goes, the large one stays.
        var after = SessionBuffer(root: "App", maximumBytes: 4096)
        after.begin(Self.tap, at: .seconds(1), stateBefore: Self.state(0))
        after.begin(Self.tap, at: .seconds(2), stateBefore: large)
        #expect(after.kept.map(\.step.number) == [1])
        #expect(after.dropped?.steps == 1)
    }
}
