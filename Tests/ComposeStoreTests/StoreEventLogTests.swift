import ComposeEmitters
import ComposeStore
import ComposeTestSupport
import Testing

@Suite struct StoreEventLogTests {
    @Test func mutationsAreLoggedWithOldAndNewValues() async {
        let label = "StoreEventLogTests.\(#function)"
        let store = Store<Profile>(label: label)
        let events = Recorder<StateMutation>()
        let observation = EventLog.observe { event in
            if event.source == label, event.kind == .mutation, let mutation = event.payload as? StateMutation {
                events.record(mutation)
            }
        }
        defer { observation.cancel() }

        store.firstName = "Jill"
        store.mutate {
            $0.age = 23
            $0.lastName = "Valentine"
        }

        await events.wait(forCount: 2)
        let logged = events.values
        #expect(logged[0].keyPath == #"\Profile.firstName"#)
        #expect(logged[0].changes.map(\.description) == [#"firstName: "" -> "Jill""#])
        #expect(logged[1].changes.map(\.property) == ["lastName", "age"])
        #expect(logged[1].changes.last?.new == "23")
    }
}
