import ComposeEmitters
import ComposeTesting
import Dispatch
import Testing

@Suite struct EmitterRecorderTests {
    @Test func recordsSignalsAndValues() async {
        let signal = SignalEmitter()
        let values = ValueEmitter<String>()
        let signals = signal.record()
        let strings = values.record()
        signal.send()
        values.send("a")
        values.send("b")
        signals.expectCount(1)
        strings.expect(["a", "b"])
        DispatchQueue.global().async { values.send("c") }
        await strings.wait(forCount: 3)
        strings.expect(["a", "b", "c"])
    }

    @Test func aWrongCountFails() {
        let signal = SignalEmitter()
        let signals = signal.record()
        signal.send()
        expectFailure("Expected 2 values sent, got 1.") { signals.expectCount(2) }
    }

    @Test func wrongValuesFailWithADiff() {
        let values = ValueEmitter<Int>()
        let recorded = values.record()
        values.send(1)
        values.send(3)
        expectFailure("The values sent do not match", "(−expected, +actual)", "−   [1]: 2", "+   [1]: 3") {
            recorded.expect([1, 2])
        }
    }

    @Test func waitingForValuesThatNeverComeFails() async {
        let values = ValueEmitter<Int>()
        let recorded = values.record()
        await expectFailure("for 1 value sent, got 0") {
            await recorded.wait(forCount: 1, timeout: .milliseconds(50))
        }
    }

    @Test func cancellingStopsRecording() {
        let signal = SignalEmitter()
        let signals = signal.record()
        signals.cancel()
        signal.send()
        signals.expectCount(0)
    }
}
