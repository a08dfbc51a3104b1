import Compose
import ComposeMachinery
import ComposeTestSupport
import ComposeTesting
import Foundation
import Testing

/// Blocks the first state encoding after `arm()` on whichever thread makes it, until `release()`.
final class EncodeGate: Sendable {
    let armed = LockedState(false)
    let entered = DispatchSemaphore(value: 0)
    let proceed = DispatchSemaphore(value: 0)
    func arm() { armed.withLock { $0 = true } }
    func passThrough() {
        let mine = armed.withLock { armed -> Bool in
            defer { armed = false }
            return armed
        }
        guard mine else { return }
        entered.signal()
        proceed.wait()
    }
    func release() { proceed.signal() }
}

enum StepGate {
    static let gate = EncodeGate()
}

struct Gated: Component {
    struct State: AnyState, Codable {
        var count = 0
        func encode(to encoder: any Encoder) throws {
            StepGate.gate.passThrough()
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(count, forKey: .count)
        }
        init() {}
        init(from decoder: any Decoder) throws {
            count = try decoder.container(keyedBy: CodingKeys.self).decode(Int.self, forKey: .count)
        }
        enum CodingKeys: String, CodingKey { case count }
    }
    @Store var state: State
    let tap = ValueEmitter<Int>(label: "race.tap")
    var observers: Void {
        tap += { _ in $state.mutate { $0.count += 1 } }
    }
}

func sendsOf(_ recording: SessionRecording) -> [Int] {
    recording.steps.compactMap { step -> Int? in
        if case .send(let send)? = step.input, case .integer(let value)? = send.value { return Int(value) }
        return nil
    }
}

@Suite(.serialized) struct SessionGatedStepTests {
    @Suite(.composeSandbox, .serialized) struct SessionStopWaitsForAStepTests {
        /// An input whose event reached the recorder (its handler is running) before `stop()` began
        /// is not in the recording `stop()` returns.
        @Test(.timeLimit(.minutes(1))) func anInputThatReachedTheRecorderBeforeStopIsRecorded() async {
            let host = ComponentHost(Gated())
            let recorder = SessionRecorder(host)
            let sandbox = ComposeSandbox.current!
            let emitter = host.root.tap
            StepGate.gate.arm()
            let sent = DispatchSemaphore(value: 0)
            startThread {
                sandbox.run { emitter.send(42) }
                sent.signal()
            }
            // The recorder's handler has the event for 42 and is reading the tree's state.
            StepGate.gate.entered.wait()
            let result = LockedState<SessionRecording?>(nil)
            let stoppedSignal = DispatchSemaphore(value: 0)
            startThread {
                let recording = sandbox.run { recorder.stop() }
                result.withLock { $0 = recording }
                stoppedSignal.signal()
            }
            // stop() has begun and waits for the step being taken.
            try? await Task.sleep(for: .milliseconds(50))
            #expect(result.withLock { $0 } == nil)
            StepGate.gate.release()
            sent.wait()
            stoppedSignal.wait()
            let stopped = result.withLock { $0 }!
            #expect(sendsOf(stopped) == [42], "steps: \(stopped.steps.map(\.input))")
            host.unmount()
        }
    }

    @Suite(.composeSandbox(clock: .test), .serialized) struct SessionSnapshotTimeOrderTests {
        /// `recording` read while an input comes: the snapshot's end step is earlier than the input
        /// before it.
        @Test(.timeLimit(.minutes(1))) func aSnapshotsTimesNeverGoBackwards() async {
            let sandbox = ComposeSandbox.current!
            let host = ComponentHost(Gated())
            let recorder = SessionRecorder(host)
            let emitter = host.root.tap
            StepGate.gate.arm()
            let snapshot = LockedState<SessionRecording?>(nil)
            let done = DispatchSemaphore(value: 0)
            startThread {
                let recording = sandbox.run { recorder.recording }
                snapshot.withLock { $0 = recording }
                done.signal()
            }
            StepGate.gate.entered.wait()  // `recording` has read its time and is reading the state
            await sandbox.testClock!.advance(by: .seconds(5))
            let sent = DispatchSemaphore(value: 0)
            startThread {
                sandbox.run { emitter.send(7) }
                sent.signal()
            }
            // The send waits for the snapshot being taken, then takes its own step.
            try? await Task.sleep(for: .milliseconds(50))
            StepGate.gate.release()
            sent.wait()
            done.wait()
            let recording = snapshot.withLock { $0 }!
            let times = recording.steps.map(\.time)
            #expect(times == times.sorted(), "times: \(times), inputs: \(recording.steps.map(\.input))")
            #expect(recording.steps.last?.input == .end)
            host.unmount()
        }
    }

    @Suite(.composeSandbox, .serialized) struct SessionRecorderReleaseTests {
        /// The last reference to a recorder dropped while its handler runs: no crash, logging off after.
        @Test(.timeLimit(.minutes(1))) func aRecorderReleasedWhileItsHandlerRuns() async {
            let sandbox = ComposeSandbox.current!
            let host = ComponentHost(Gated())
            let holder = LockedState<SessionRecorder?>(SessionRecorder(host))
            let emitter = host.root.tap
            StepGate.gate.arm()
            let sent = DispatchSemaphore(value: 0)
            startThread {
                sandbox.run { emitter.send(1) }
                sent.signal()
            }
            StepGate.gate.entered.wait()
            holder.withLock { $0 = nil }
            StepGate.gate.release()
            sent.wait()
            sandbox.run { emitter.send(2) }
            #expect(host.root.state.count == 2)
            host.unmount()
        }
    }
}
