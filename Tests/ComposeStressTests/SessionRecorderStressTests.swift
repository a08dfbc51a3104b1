import Compose
import ComposeMachinery
import ComposeTestSupport
import ComposeTesting
import Testing

/// A recorder while several threads make inputs, ask services for results and stop it: every
/// input before `stop()` is recorded exactly once, in each thread's order, with its results, and
/// the recording stays whole. Run under ThreadSanitizer in CI.
///
/// Each test runs in a sandbox, and its threads enter it: a recorder observes its world's event
/// log, and an input reaches it once the thread handing the log's events over has handed it over
/// (a thread of the same world), so another test's threads never hold this test's inputs back.
@Suite(.composeSandbox) struct SessionRecorderStressTests {
    static let threads = 4
    static let sends = 250

    struct Counter: Component {
        struct State: AnyState, Codable { var count = 0 }
        @Store var state: State
        let first = ValueEmitter<Int>(label: "stress.first")
        let second = ValueEmitter<Int>(label: "stress.second")
        let third = ValueEmitter<Int>(label: "stress.third")
        let fourth = ValueEmitter<Int>(label: "stress.fourth")

        var emitters: [ValueEmitter<Int>] { [first, second, third, fourth] }

        var observers: Void {
            for emitter in emitters {
                emitter += { _ in $state.mutate { $0.count += 1 } }
            }
        }
    }

    /// Sends 0, 1, 2, ... on `emitter`, asking a service for a result every 50 values.
    static func send(_ emitter: ValueEmitter<Int>, thread: Int) {
        for value in 0..<sends {
            emitter.send(value)
            if value % 50 == 0 {
                _ = try? SessionRecorder.result(named: "stress.result.\(thread)") { value }
            }
        }
    }

    /// The values of each emitter's recorded sends, by label.
    static func sent(_ recording: SessionRecording) -> [String: [Int]] {
        var sent: [String: [Int]] = [:]
        for case .send(let send)? in recording.steps.map(\.input) {
            if case .integer(let value)? = send.value { sent[send.label ?? "", default: []].append(Int(value)) }
        }
        return sent
    }

    @Test func inputsFromManyThreadsAreEachRecordedOnceInTheirOrder() async {
        let host = ComponentHost(Counter())
        let recorder = SessionRecorder(host, maximumBytes: 64 << 20)
        let emitters = host.root.emitters
        let sandbox = ComposeSandbox.current!
        await onThreads(Self.threads) { thread in
            sandbox.run { Self.send(emitters[thread], thread: thread) }
        }
        let recording = recorder.stop()

        let sent = Self.sent(recording)
        #expect(sent.count == Self.threads)
        for emitter in emitters {
            #expect(sent[emitter.label ?? ""] == Array(0..<Self.sends))
        }
        #expect(recording.steps.map(\.number) == Array(0..<(Self.threads * Self.sends + 2)))
        #expect(recording.steps.flatMap(\.results).count == Self.threads * Self.sends / 50)
        #expect(
            recording.states.last?.stores["Counter.state"]
                == .value(.object(["count": .integer(Int64(Self.threads * Self.sends))])))
        host.unmount()
    }

    /// `stop()` while threads send: what was recorded is a run of each thread's values from the
    /// first, the recording ends with its end step, and nothing changes it afterwards.
    @Test func stoppingWhileThreadsSendKeepsTheRecordingWhole() async {
        for _ in 0..<20 {
            let host = ComponentHost(Counter())
            let recorder = SessionRecorder(host, maximumBytes: 64 << 20)
            let emitters = host.root.emitters
            let stopped = LockedState<SessionRecording?>(nil)
            let sandbox = ComposeSandbox.current!
            await onThreads(Self.threads + 1) { thread in
                sandbox.run {
                    if thread == Self.threads {
                        stopped.withLock { $0 = recorder.stop() }
                        return
                    }
                    for value in 0..<50 { emitters[thread].send(value) }
                }
            }
            guard let recording = stopped.withLock({ $0 }) else {
                Issue.record("stop() returned nothing")
                return
            }
            #expect(recording.steps.last?.input == .end)
            #expect(recording.steps.map(\.number) == Array(0..<recording.steps.count))
            for (label, values) in Self.sent(recording) {
                #expect(values == Array(0..<values.count), "\(label)")
            }
            #expect(recorder.recording == recording)
            #expect(recorder.stop() == recording)
            host.unmount()
        }
    }
}
