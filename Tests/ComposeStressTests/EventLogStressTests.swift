import ComposeEmitters
import ComposeTestSupport
import Testing

/// The event log hands events over in the order of their sequence numbers, whatever threads
/// record them.
@Suite struct EventLogStressTests {
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
            let previous = last.mutate { last in
                defer { last = event.sequence }
                return last
            }
            if event.sequence <= previous { outOfOrder.mutate { $0 += 1 } }
            if event.source.hasPrefix(label) { heard.mutate { $0 += 1 } }
        }
        let emitters = (0..<4).map { ValueEmitter<Int>(label: "\(label).\($0)") }
        await onThreads(4) { thread in
            for value in 0..<5_000 { emitters[thread].send(value) }
        }
        #expect(await eventually(timeout: .seconds(300)) { heard.value == 20_000 })
        observation.cancel()
        #expect(outOfOrder.value == 0)
    }
}
