import ComposeTestSupport
import Testing

@testable import ComposeEmitters

// The log is process-wide and tests run in parallel, so each test looks only at its own labels.
@Suite struct EventLogTests {
    @Test func sendsAreRecordedWithLabelValueAndOrder() async {
        let events = Recorder<EventLog.Event>()
        let label = "EventLogTests.\(#function)"
        let emitter = ValueEmitter<String>(label: label)
        let signal = SignalEmitter(label: label + ".signal")
        let observation = EventLog.observe { event in
            if event.source.hasPrefix(label) { events.record(event) }
        }
        defer { observation.cancel() }
        #expect(EventLog.isEnabled)

        emitter.send("a")
        signal.send()
        emitter.send("b")

        // Another test's event may be being handed over on another thread; ours follow it.
        await events.wait(forCount: 3)
        let recorded = events.values
        #expect(recorded.map(\.source) == [label, label + ".signal", label])
        #expect(recorded.map(\.kind) == [.send, .send, .send])
        #expect(recorded.compactMap { $0.payload as? String } == ["a", "b"])
        #expect(recorded.map(\.sequence) == recorded.map(\.sequence).sorted())
        #expect(recorded[0].time <= recorded[2].time)
        #expect(recorded[0].description.contains("send \(label): a"))
    }

    @Test func anUnlabelledEmitterIsNamedByTypeAndIdentity() {
        let emitter = ValueEmitter<Int>()
        let source = emitter.core.logSource
        #expect(source.hasPrefix("ValueEmitter<Int>@"))
        #expect(SignalEmitter().core.logSource.hasPrefix("SignalEmitter@"))
    }

    @Test func nothingIsRecordedAfterTheObservationIsCancelled() async {
        let label = "EventLogTests.\(#function)"
        let events = Recorder<EventLog.Event>()
        let emitter = SignalEmitter(label: label)
        let observation = EventLog.observe { if $0.source == label { events.record($0) } }
        emitter.send()
        await events.wait(forCount: 1)
        observation.cancel()
        emitter.send()
        for _ in 0..<100 { await Task.yield() }
        #expect(events.count == 1)
    }
}
