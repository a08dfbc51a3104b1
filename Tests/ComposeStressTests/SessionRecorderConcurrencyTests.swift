import Compose
import ComposeEmitters
import ComposeMachinery
import ComposeTestSupport
import ComposeTesting
import Foundation
import Testing

enum ReentrantRecorder {
    static let recorder = LockedState<SessionRecorder?>(nil)
    static let seen = LockedState<[SessionRecording]>([])
}

struct Reentrant: Component {
    struct State: AnyState, Codable { var count = 0 }
    @Store var state: State
    let tap = ValueEmitter<Int>(label: "race.reentrant")
    let stopper = ValueEmitter<Int>(label: "race.stopper")
    var observers: Void {
        tap += { _ in
            $state.mutate { $0.count += 1 }
            if let recorder = ReentrantRecorder.recorder.withLock({ $0 }) {
                let recording = recorder.recording
                ReentrantRecorder.seen.withLock { $0.append(recording) }
            }
        }
        stopper += { _ in
            if let recorder = ReentrantRecorder.recorder.withLock({ $0 }) {
                let recording = recorder.stop()
                ReentrantRecorder.seen.withLock { $0.append(recording) }
            }
        }
        $state.didChange += { _ in
            if let recorder = ReentrantRecorder.recorder.withLock({ $0 }) { _ = recorder.recording }
        }
    }
}

func withinSeconds(_ seconds: Double, _ body: @escaping @Sendable () -> Void) -> Bool {
    let done = DispatchSemaphore(value: 0)
    startThread {
        body()
        done.signal()
    }
    return done.wait(timeout: .now() + seconds) == .success
}

@Suite(.composeSandbox, .serialized) struct SessionRecorderReentrancyTests {
    @Test func aHandlerReadingOrStoppingTheRecorderDoesNotDeadlock() async {
        let sandbox = ComposeSandbox.current!
        let host = ComponentHost(Reentrant())
        let recorder = SessionRecorder(host)
        ReentrantRecorder.recorder.withLock { $0 = recorder }
        ReentrantRecorder.seen.withLock { $0 = [] }
        let root = host.root
        let finished = withinSeconds(10) {
            sandbox.run {
                root.tap.send(1)
                root.tap.send(2)
                root.stopper.send(3)
                root.tap.send(4)
            }
        }
        #expect(finished)
        ReentrantRecorder.recorder.withLock { $0 = nil }
        let final = recorder.recording
        #expect(final.steps.last?.input == .end)
        #expect(sendsOf(final) == [1, 2, 3], "\(final.steps.map(\.input))")
        host.unmount()
    }

    @Test func anEventLogObserverStoppingTheRecorderDoesNotDeadlock() async {
        let sandbox = ComposeSandbox.current!
        let host = ComponentHost(Reentrant())
        let recorder = SessionRecorder(host)
        let stopped = LockedState<SessionRecording?>(nil)
        let observer = EventLog.observe { event in
            if event.kind == .send, !event.isConsequence, stopped.withLock({ $0 }) == nil {
                let recording = recorder.stop()
                stopped.withLock { $0 = recording }
            }
        }
        let root = host.root
        let finished = withinSeconds(10) {
            sandbox.run {
                root.tap.send(1)
                root.tap.send(2)
            }
        }
        observer.cancel()
        #expect(finished)
        let recording = stopped.withLock { $0 }
        #expect(recording != nil)
        #expect(recorder.recording == recording)
        host.unmount()
    }
}

struct Four: Component {
    struct State: AnyState, Codable { var count = 0 }
    @Store var state: State
    let first = ValueEmitter<Int>(label: "four.first")
    let second = ValueEmitter<Int>(label: "four.second")
    let third = ValueEmitter<Int>(label: "four.third")
    let fourth = ValueEmitter<Int>(label: "four.fourth")
    var emitters: [ValueEmitter<Int>] { [first, second, third, fourth] }
    var observers: Void {
        for emitter in emitters { emitter += { _ in $state.mutate { $0.count += 1 } } }
    }
}

func byLabel(_ recording: SessionRecording) -> [String: [Int]] {
    var sent: [String: [Int]] = [:]
    for case .send(let send)? in recording.steps.map(\.input) {
        if case .integer(let value)? = send.value { sent[send.label ?? "", default: []].append(Int(value)) }
    }
    return sent
}

func checkWhole(_ recording: SessionRecording, _ context: String) {
    let first = recording.dropped?.steps ?? 0
    #expect(recording.steps.map(\.number) == Array(first..<(first + recording.steps.count)), "\(context)")
    #expect(recording.steps.last?.input == .end, "\(context)")
    #expect(recording.steps.dropLast().allSatisfy { $0.input != .end }, "\(context)")
    let times = recording.steps.map(\.time)
    #expect(times == times.sorted(), "\(context) times")
    for (label, values) in byLabel(recording) {
        if let start = values.first {
            #expect(values == Array(start..<(start + values.count)), "\(context) \(label): \(values.prefix(20))")
        }
    }
}

@Suite(.composeSandbox, .serialized) struct SessionManyRecordersTests {
    /// Recorders made and stopped on several threads while others send: each recording is
    /// whole, and each thread's values are a contiguous run.
    @Test(.timeLimit(.minutes(2))) func recordersComingAndGoingWhileThreadsSend() async {
        let sandbox = ComposeSandbox.current!
        let host = ComponentHost(Four())
        let emitters = host.root.emitters
        let recordings = LockedState<[SessionRecording]>([])
        let longLived = SessionRecorder(host, maximumBytes: 64 << 20)
        await onThreads(8) { thread in
            sandbox.run {
                if thread < 4 {
                    for value in 0..<400 { emitters[thread].send(value) }
                } else {
                    for _ in 0..<15 {
                        let recorder = SessionRecorder(host, maximumBytes: 64 << 20)
                        let snapshot = recorder.recording
                        let stopped = recorder.stop()
                        recordings.withLock { $0 += [snapshot, stopped] }
                    }
                }
            }
        }
        let whole = longLived.stop()
        checkWhole(whole, "long-lived")
        #expect(byLabel(whole).values.map(\.count).sorted() == [400, 400, 400, 400])
        for (index, recording) in recordings.withLock({ $0 }).enumerated() { checkWhole(recording, "short \(index)") }
        host.unmount()
    }

    /// The file stays under its size while threads send and read `recording`.
    @Test(.timeLimit(.minutes(2))) func theFileStaysUnderItsSizeUnderConcurrency() async {
        let sandbox = ComposeSandbox.current!
        let host = ComponentHost(Four())
        let emitters = host.root.emitters
        let recorder = SessionRecorder(host, maximumBytes: 4096)
        let worst = LockedState(0)
        await onThreads(6) { thread in
            sandbox.run {
                if thread < 4 {
                    for value in 0..<500 {
                        emitters[thread].send(value)
                        if value % 25 == 0 { _ = try? SessionRecorder.result(named: "r\(thread)") { value } }
                    }
                } else {
                    for _ in 0..<200 {
                        let recording = recorder.recording
                        let size = recording.jsonLines.count
                        worst.withLock { $0 = max($0, size) }
                        checkWhole(recording, "snapshot")
                    }
                }
            }
        }
        let recording = recorder.stop()
        checkWhole(recording, "stopped")
        #expect(worst.withLock { $0 } <= 4096)
        #expect(recording.jsonLines.count <= 4096)
        host.unmount()
    }
}

@Suite(.serialized) struct EventLogInterestChurnTests {
    /// Observers of named kinds coming and going on many threads and in many worlds while a
    /// mutation observer stays: `isRecording(.mutation)` stays true, and once all are gone,
    /// nothing is recorded.
    @Test(.timeLimit(.minutes(2))) func interestChurnNeverLosesAKind() async {

        let mutations = EventLog.observe(only: [.mutation]) { _ in }
        let wrong = LockedState(0)
        await onThreads(8) { thread in
            withComposeSandbox(label: "churn \(thread)") { _ in
                for index in 0..<20_000 {
                    let kinds: Set<EventLog.Event.Kind> = index % 2 == 0 ? [.send] : [.send, .mutation]
                    let subscription = EventLog.observe(only: kinds) { _ in }
                    if !EventLog.isRecording(.mutation) || !EventLog.isRecording(.send) { wrong.withLock { $0 += 1 } }
                    subscription.cancel()
                    if !EventLog.isRecording(.mutation) { wrong.withLock { $0 += 1 } }
                }
            }
        }
        #expect(wrong.withLock { $0 } == 0)
        mutations.cancel()
    }
}

@Suite(.composeSandbox, .serialized) struct SessionStopTimeOrderTests {
    /// `stop()` while threads send: the file `stop()` returns has its `end` step last in time too.
    @Test(.timeLimit(.minutes(2))) func theEndStepOfAStoppedRecordingIsNotEarlierThanItsInputs() async {
        var inverted: [[Duration]] = []
        for _ in 0..<200 {
            let sandbox = ComposeSandbox.current!
            let host = ComponentHost(Four())
            let emitters = host.root.emitters
            let recorder = SessionRecorder(host, maximumBytes: 64 << 20)
            let stopped = LockedState<SessionRecording?>(nil)
            await onThreads(5) { thread in
                sandbox.run {
                    if thread == 4 {
                        stopped.withLock { $0 = recorder.stop() }
                        return
                    }
                    for value in 0..<50 { emitters[thread].send(value) }
                }
            }
            let times = stopped.withLock { $0 }!.steps.map(\.time)
            if times != times.sorted() { inverted.append(times.suffix(3)) }
            host.unmount()
        }
        #expect(
            inverted.isEmpty, "\(inverted.count) of 200 stopped recordings end before their last input: \(inverted.prefix(3))")
    }
}
