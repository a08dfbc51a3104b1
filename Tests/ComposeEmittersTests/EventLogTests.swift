@testable import ComposeEmitters
import ComposeTestSupport
import Testing

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

    /// Four threads send 5,000 values each: every event the observer hears has a larger sequence
    /// number than the one before. Before the fix, numbers were taken before queueing, and about
    /// 8 in 20,000 arrived out of order.
    @Test func eventsArriveInTheOrderOfTheirSequenceNumbers() async {
        let label = "EventLogTests.\(#function)"
        let outOfOrder = LockedBox(0)
        let heard = LockedBox(0)
        let last = LockedBox<UInt64>(0)
        let observation = EventLog.observe { event in
            // The observer is never called concurrently with itself, but the boxes keep TSan's
            // view of it simple.
            let previous = last.mutate { last in defer { last = event.sequence }; return last }
            if event.sequence <= previous { outOfOrder.mutate { $0 += 1 } }
            if event.source.hasPrefix(label) { heard.mutate { $0 += 1 } }
        }
        let emitters = (0..<4).map { ValueEmitter<Int>(label: "\(label).\($0)") }
        await onThreads(4) { thread in
            for value in 0..<5_000 { emitters[thread].send(value) }
        }
        #expect(await eventually { heard.value == 20_000 })
        observation.cancel()
        #expect(outOfOrder.value == 0)
    }
}
