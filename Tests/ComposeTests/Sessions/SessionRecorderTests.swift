import Compose
import ComposeMachinery
import ComposeTesting
import Foundation
import Testing

/// A log-in form with a private field, a sheet, and a value that is not `Codable`.
private struct LogInComponent: Component {
    struct State: AnyState, Codable {
        var email = ""
        @Redacted var password = ""
        var attempts = 0
    }

    struct Color: Sendable, Equatable { var hue: Double }  // not Codable

    struct Settings: Component {
        var observers: Void { None }
    }

    @Store var state: State
    let email = ValueEmitter<String>(label: "login.email")
    let password = ValueEmitter<String>(label: "login.password", redacted: true)
    let submit = SignalEmitter(label: "login.submit")
    let tint = ValueEmitter<Color>(label: "login.tint")
    let settings = DynamicComponent<Settings>()
    let openSettings = SignalEmitter(label: "login.openSettings")

    var observers: Void {
        email += { $state.email = $0 }
        password += { $state.password = $0 }
        submit += { $state.mutate { $0.attempts += 1 } }
        openSettings += { settings.create(Settings()) }
    }
}

/// A search that runs once typing pauses, its results in the state a checkpoint holds.
private struct SearchComponent: Component {
    struct State: AnyState, Codable {
        var results: [String] = []
    }

    @Store var state: State
    let query = ValueEmitter<String>(label: "search.query")

    var observers: Void {
        query.debounce(interval: .milliseconds(300), clock: services.clock) += { query in
            $state.results = ["Dune", "Emma", "Ulysses"].filter { $0.lowercased().contains(query) }
        }
    }
}

@Suite(.composeSandbox(clock: .test))
struct SessionRecorderTests {
    /// What time brings (a debounced search) is in the checkpoint of the step before the next
    /// input, and a replay reaches it by advancing its clock to that input's time.
    @Test func timePassesAsRecorded() async throws {
        let clock = try #require(ComposeSandbox.current?.testClock)
        let host = ComponentHost(SearchComponent())
        let recorder = SessionRecorder(host)
        host.root.query.send("u")
        await clock.settle(by: .milliseconds(500))
        host.root.query.send("e")
        await clock.settle(by: .milliseconds(200))
        let recording = recorder.stop()
        #expect(
            recording.steps[1].checkpoint.stores["SearchComponent.state"]
                == .value(.object(["results": .array([.string("Dune"), .string("Ulysses")])])))
        #expect(recording.steps.map(\.time) == [.zero, .zero, .milliseconds(500), .milliseconds(700)])
        await SessionReplay(recording).run(SearchComponent())
        host.unmount()
    }

    @Test func privateValuesNeverReachTheFile() async throws {
        let host = ComponentHost(LogInComponent())
        let recorder = SessionRecorder(host)
        host.root.email.send("jill@example.com")
        host.root.password.send("hunter2-secret")
        host.root.submit.send()
        let recording = recorder.stop()
        let file = String(decoding: recording.jsonLines, as: UTF8.self)
        #expect(!file.contains("hunter2"))
        #expect(file.contains(#""password":"<redacted>""#))
        #expect(file.contains(#""redacted":true"#))
        #expect(host.root.state.password == "hunter2-secret")  // the app itself is unchanged
        #expect(recording.steps[2].input?.description == "send login.password <redacted> (LogInComponent.password)")

        // Replaying needs the value, which the file does not have: the replay says so, and
        // replays once given one.
        let replay = SessionReplay(recording)
        let missing = try #require(await replay.firstDivergence(LogInComponent()))
        #expect(missing.step == 2)
        #expect(missing.problem == #"the value is redacted; pass one in `substitutes` under "login.password""#)
        #expect(await replay.firstDivergence(LogInComponent(), substitutes: ["login.password": "anything"]) == nil)
        host.unmount()
    }

    /// A private field typed through its binding (a secure text field): neither the file nor any
    /// event of the log (every kind, mutations included) holds the value.
    @Test func aPrivateFieldTypedThroughABindingStaysPrivate() async throws {
        let host = ComponentHost(LogInComponent())
        let logged = LockedState<[String]>([])
        let everything = EventLog.observe { event in logged.withLock { $0.append("\(event)") } }
        let recorder = SessionRecorder(host)
        host.root.$state.binding.password.wrappedValue = "hunter2-secret"
        host.root.$state.binding.email.wrappedValue = "jill@example.com"
        let recording = recorder.stop()
        everything.cancel()
        #expect(host.root.state.password == "hunter2-secret")
        let file = String(decoding: recording.jsonLines, as: UTF8.self)
        #expect(!file.contains("hunter2"))
        #expect(recording.steps.compactMap(\.input?.description).first == "set \\State.<computed String> of LogInComponent.state")
        let events = logged.withLock { $0 }
        #expect(events.contains { $0.contains("binding") && $0.contains("password") })
        #expect(!events.contains { $0.contains("hunter2") })
        await SessionReplay(recording).run(LogInComponent(), substitutes: ["LogInComponent.state": "anything"])
        host.unmount()
    }

    @Test func aValueThatIsNotCodableIsDescribedAndCannotReplay() async throws {
        let host = ComponentHost(LogInComponent())
        let recorder = SessionRecorder(host)
        host.root.tint.send(.init(hue: 0.5))
        let recording = recorder.stop()
        guard case .send(let send) = recording.steps[1].input else {
            Issue.record("not a send: \(String(describing: recording.steps[1].input))")
            return
        }
        #expect(send.value == nil)
        #expect(send.valueDescription == "Color(hue: 0.5)")
        let divergence = try #require(await SessionReplay(recording).firstDivergence(LogInComponent()))
        #expect(divergence.step == 1)
        #expect(divergence.problem == "its value (Color(hue: 0.5)) was not Encodable, so it was not recorded")
        host.unmount()
    }

    @Test func aSheetDismissedFromOutsideIsAnInput() async throws {
        let host = ComponentHost(LogInComponent())
        let recorder = SessionRecorder(host)
        host.root.openSettings.send()
        #expect(host.root.settings.isCreated)
        host.root.settings.isPresented = false  // a swipe down
        let recording = recorder.stop()
        #expect(
            recording.steps.compactMap(\.input?.description) == [
                "send login.openSettings (LogInComponent.openSettings)", "dismiss LogInComponent.settings", "end",
            ])
        await SessionReplay(recording).run(LogInComponent())
        host.unmount()
    }

    @Test func manualVisibilityIsAnInput() async throws {
        let host = ComponentHost(LogInComponent(), visibility: .manual)
        let recorder = SessionRecorder(host)
        let root = try #require(host.rootNode)
        host.setVisible(root, true)
        let recording = recorder.stop()
        #expect(recording.steps.compactMap(\.input?.description) == ["appear LogInComponent", "end"])
        host.unmount()
    }

    /// Over its size, the recording drops its oldest steps in batches, says how many, and keeps
    /// the whole state they led to; a replay starts from that state.
    @Test func aLongSessionStaysUnderItsSize() async throws {
        let host = ComponentHost(LogInComponent())
        let recorder = SessionRecorder(host, maximumBytes: 4096)
        for attempt in 0..<200 {
            host.root.email.send("user\(attempt)@example.com")
            host.root.submit.send()
        }
        let recording = recorder.stop()
        #expect(recording.jsonLines.count <= 4096)
        let dropped = try #require(recording.dropped)
        #expect(dropped.steps + recording.steps.count == 402)  // step 0, 400 inputs, the end
        #expect(recording.steps.first?.number == dropped.steps)
        #expect(recording.steps.last?.input == .end)
        guard case .value(let state) = recording.states.last?.stores["LogInComponent.state"] else {
            Issue.record("no final state")
            return
        }
        #expect(
            state
                == .object([
                    "attempts": .integer(200), "email": .string("user199@example.com"), "password": .string("<redacted>"),
                ]))
        #expect(try SessionRecording(jsonLines: recording.jsonLines) == recording)
        await SessionReplay(recording).run(LogInComponent())
        host.unmount()
    }

    @Test func stoppingStopsLoggingAndIsIdempotent() {
        let host = ComponentHost(LogInComponent())
        let recorder = SessionRecorder(host)
        #expect(EventLog.isEnabled)
        #expect(recorder.isRecording)
        host.root.submit.send()
        let first = recorder.stop()
        host.root.submit.send()
        #expect(!recorder.isRecording)
        #expect(recorder.stop() == first)
        #expect(recorder.recording == first)
        #expect(first.steps.count == 3)
        host.unmount()
    }
}
