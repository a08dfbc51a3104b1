import ComposeEmitters
import ComposeTestSupport
import Testing

/// `emitter { ... }` subscribes exactly like `emitter += { ... }`.
@Suite struct TrailingClosureSubscribeTests {
    @Test func aTrailingClosureSubscribesToASignal() {
        let signal = SignalEmitter()
        let heard = Recorder<Void>()
        let subscription = signal { heard.record() }
        #expect(heard.count == 0)  // calling the emitter did not send
        signal.send()
        signal.send()
        #expect(heard.count == 2)
        subscription.cancel()
        signal.send()
        #expect(heard.count == 2)
    }

    @Test func aTrailingClosureSubscribesToValues() {
        let emitter = ValueEmitter<String>()
        let heard = Recorder<String>()
        emitter { heard.record($0) }
        emitter.send("a")
        emitter.send("b")
        #expect(heard.values == ["a", "b"])
    }

    @Test func itJoinsTheCurrentScopeLikePlusEquals() {
        let signal = SignalEmitter()
        let heard = Recorder<String>()
        let scope = ObservationScope(label: "trailing")
        scope.run {
            signal { heard.record("called") }
            signal += { heard.record("plus-equals") }
        }
        signal.send()
        scope.end()
        signal.send()
        #expect(heard.values == ["called", "plus-equals"])
        #expect(signal.subscriberCount == 0)
    }
}
