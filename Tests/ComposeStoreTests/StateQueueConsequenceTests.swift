import ComposeEmitters
import ComposeStore
import ComposeTestSupport
import Testing

/// `withState` and `setState` work runs later, on a task of its own: what it sends is a
/// consequence when a delivery queued it (a handler), and an input when outside code did.
@Suite struct StateQueueConsequenceTests {
    @Test(arguments: [false, true])
    func workQueuedByAHandlerSendsAsAConsequence(setState: Bool) async {
        let label = "StateQueueConsequenceTests.\(setState)"
        let store = Store<Profile>(label: label)
        let tap = SignalEmitter(label: label + ".tap")
        let echo = ValueEmitter<Int>(label: label + ".echo")
        let events = Recorder<(String, Bool)>()
        let observation = EventLog.observe { event in
            if event.kind == .send, event.source.hasPrefix(label) { events.record((event.source, event.isConsequence)) }
        }
        defer { observation.cancel() }
        let queue: @Sendable () -> Void = {
            if setState {
                store.setState { state in
                    state.age += 1
                    echo.send(state.age)
                }
            } else {
                store.withState { state in echo.send(state.age) }
            }
        }
        let tapped = tap += queue
        defer { tapped.cancel() }

        tap.send()  // a handler queues the work
        #expect(await events.wait(forCount: 2))
        queue()  // outside code queues it
        #expect(await events.wait(forCount: 3))

        #expect(events.values.map(\.0) == [".tap", ".echo", ".echo"].map { label + $0 })
        #expect(events.values.map(\.1) == [false, true, false])
    }
}
