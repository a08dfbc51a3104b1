import Compose
import ComposeMachinery
import ComposeTesting
import Foundation
import Testing

// MARK: Apps

/// A store observer (a handler) sends on a stored emitter when a binding writes the field.
private struct EchoComponent: Component {
    struct State: AnyState, Codable {
        var text = ""
        var log: [String] = []
    }
    @Store var state: State
    let typed = ValueEmitter<String>(label: "echo.typed")

    var observers: Void {
        $state.observe(\.text) { text in typed.send(text) }
        typed += { text in $state.mutate { $0.log.append(text) } }
    }
}

/// A main-actor handler sends on another stored emitter.
private struct HopComponent: Component {
    struct State: AnyState, Codable { var loads = 0 }
    @Store var state: State
    let tap = SignalEmitter(label: "hop.tap")
    let loaded = SignalEmitter(label: "hop.loaded")

    var observers: Void {
        tap += { @MainActor in loaded.send() }
        loaded += { $state.mutate { $0.loads += 1 } }
    }
}

/// A timer counts seconds.
private struct TickerComponent: Component {
    struct State: AnyState, Codable {
        var seconds = 0
        var taps = 0
    }
    @Store var state: State
    let tap = SignalEmitter(label: "ticker.tap")

    var observers: Void {
        Emitters.Timer(interval: .seconds(1), clock: services.clock) += { _ in $state.mutate { $0.seconds += 1 } }
        tap += { $state.mutate { $0.taps += 1 } }
    }
}

/// Loads on appear, in a task (the common "load on appear" pattern).
private struct LoaderComponent: Component {
    struct State: AnyState, Codable { var loads = 0 }
    @Store var state: State
    let loaded = SignalEmitter(label: "loader.loaded")

    var observers: Void {
        didAppear += {
            let clock = services.clock
            Task {
                try? await clock.sleep(for: .seconds(1))
                loaded.send()
            }
        }
        loaded += { $state.mutate { $0.loads += 1 } }
    }
}

struct Login: Codable, Sendable, Equatable {
    var name: String
    @Redacted var token: String
}

/// A service result with a private field.
private struct AccountComponent: Component {
    struct State: AnyState, Codable {
        var name = ""
        var error = ""
    }
    @Store var state: State
    let logIn = SignalEmitter(label: "account.logIn")

    var observers: Void {
        logIn += {
            do {
                let login = try SessionRecorder.result(named: "account.login") { Login(name: "jill", token: "s3cret-token") }
                $state.mutate { $0.name = login.name }
            } catch {
                $state.mutate { $0.error = "\(error)" }
            }
        }
    }
}

/// A note with a free-text title.
private struct TitleComponent: Component {
    struct State: AnyState, Codable { var title = "" }
    var uppercases = false
    @Store var state: State
    let rename = ValueEmitter<String>(label: "title.rename")
    var observers: Void {
        rename += { t in $state.title = uppercases ? t.uppercased() : t }
    }
}

private struct TitleUppercased: Component {
    struct State: AnyState, Codable { var title = "" }
    @Store var state: State
    let rename = ValueEmitter<String>(label: "title.rename")
    var observers: Void {
        rename += { t in $state.title = t.uppercased() }
    }
}

/// A big state.
private struct BigComponent: Component {
    struct State: AnyState, Codable {
        var items: [String] = (0..<400).map { "item number \($0) with some padding" }
        var count = 0
    }
    @Store var state: State
    let tap = SignalEmitter(label: "big.tap")
    var observers: Void {
        tap += { $state.mutate { $0.count += 1 } }
    }
}

@Suite(.composeSandbox(clock: .test))
struct SessionClassificationTests {
    /// A store observer's send is a handler's: it must not be an input, and an unchanged app must
    /// replay.
    @Test func aStoreObserversSendIsAConsequence() async throws {
        let host = ComponentHost(EchoComponent())
        let recorder = SessionRecorder(host)
        host.root.$state.binding.text.wrappedValue = "a"
        let recording = recorder.stop()
        let inputs = recording.steps.compactMap(\.input?.description)
        #expect(inputs == ["set \\State.text of EchoComponent.state", "end"], "inputs: \(inputs)")
        let divergence = await SessionReplay(recording).firstDivergence(EchoComponent())
        #expect(divergence == nil, "\(divergence.map { "\($0)" } ?? "")")
        host.unmount()
    }

    /// A main-actor handler's send is a handler's send.
    @Test func aMainActorHandlersSendIsAConsequence() async throws {
        let host = ComponentHost(HopComponent())
        let recorder = SessionRecorder(host)
        host.root.tap.send()  // from a thread that is not the main one
        for _ in 0..<200 where host.root.state.loads == 0 { try await Task.sleep(for: .milliseconds(10)) }
        #expect(host.root.state.loads == 1)
        let recording = recorder.stop()
        let inputs = recording.steps.compactMap(\.input?.description)
        #expect(inputs == ["send hop.tap (HopComponent.tap)", "end"], "inputs: \(inputs)")
        host.unmount()
    }

    /// Time passes before the first input: the default replay must not diverge.
    @Test func timeBeforeTheFirstInputPassesOnce() async throws {
        let clock = try #require(ComposeSandbox.current?.testClock)
        let host = ComponentHost(TickerComponent())
        try await Task.sleep(for: .milliseconds(100))  // the timer's task is asleep on the clock
        let recorder = SessionRecorder(host)
        for second in 1...5 { await clock.advance(by: .seconds(1)) { host.root.state.seconds == second } }
        #expect(host.root.state.seconds == 5)
        host.root.tap.send()
        await clock.settle(by: .milliseconds(500))
        let recording = recorder.stop()
        let fresh = await SessionReplay(recording).firstDivergence(TickerComponent(), start: .fresh)
        #expect(fresh == nil, "fresh: \(fresh.map { "\($0)" } ?? "")")
        let divergence = await SessionReplay(recording).firstDivergence(TickerComponent())
        #expect(divergence == nil, "\(divergence.map { "\($0)" } ?? "")")
        host.unmount()
    }

    /// A recording that dropped steps replays from the marker's state, even with a timer.
    @Test func aTrimmedRecordingKeepsItsTimersPhase() async throws {
        let clock = try #require(ComposeSandbox.current?.testClock)
        let host = ComponentHost(TickerComponent())
        try await Task.sleep(for: .milliseconds(100))  // the timer's task is asleep on the clock
        let recorder = SessionRecorder(host, maximumBytes: 4096)
        for _ in 0..<100 {
            host.root.tap.send()
            await clock.settle(by: .milliseconds(250))
        }
        let recording = recorder.stop()
        #expect(recording.dropped != nil)
        let divergence = await SessionReplay(recording).firstDivergence(TickerComponent())
        #expect(divergence == nil, "\(divergence.map { "\($0)" } ?? "")")
        host.unmount()
    }

    /// The load a tree starts on appear is the tree's own: recorded as an input, the replay does it twice.
    @Test func aTaskStartedOnAppearBeforeRecordingSendsAConsequence() async throws {
        let clock = try #require(ComposeSandbox.current?.testClock)
        let host = ComponentHost(LoaderComponent())
        let recorder = SessionRecorder(host)
        try await Task.sleep(for: .milliseconds(100))  // the task is asleep on the clock
        await clock.settle(by: .seconds(2))
        let recording = recorder.stop()
        #expect(host.root.state.loads == 1)
        let divergence = await SessionReplay(recording).firstDivergence(LoaderComponent())
        #expect(divergence == nil, "\(divergence.map { "\($0)" } ?? "")")
        host.unmount()
    }

    /// A service result with a @Redacted field: recorded redacted; an unchanged app must replay.
    @Test func aResultWithARedactedFieldNeedsASubstitute() async throws {
        let host = ComponentHost(AccountComponent())
        let recorder = SessionRecorder(host)
        host.root.logIn.send()
        let recording = recorder.stop()
        #expect(host.root.state.name == "jill")
        let file = String(decoding: recording.jsonLines, as: UTF8.self)
        #expect(!file.contains("s3cret"))
        let divergence = await SessionReplay(recording).firstDivergence(AccountComponent())
        #expect(divergence?.step == 1)
        #expect(divergence?.problem?.contains(#"pass a value in `substitutes` under "account.login""#) == true)
        let substituted = await SessionReplay(recording).firstDivergence(
            AccountComponent(), substitutes: ["account.login": Login(name: "jill", token: "any")])
        #expect(substituted == nil, "\(substituted.map { "\($0)" } ?? "")")
        host.unmount()
    }

    /// A title the user typed as "<redacted>": a changed app must be reported.
    @Test func theTextRedactedTypedInASendStillShowsAChange() async throws {
        let host = ComponentHost(TitleComponent())
        let recorder = SessionRecorder(host)
        host.root.rename.send("<redacted>")
        host.root.rename.send("x")
        let recording = recorder.stop()
        // the changed app uppercases titles: "<REDACTED>" at step 1
        let divergence = await SessionReplay(recording).firstDivergence(TitleComponent(uppercases: true))
        #expect(divergence?.step == 1, "\(divergence.map { "\($0)" } ?? "none")")
        host.unmount()
    }

    /// A state larger than the limit: the file holds the header, the marker (the whole state) and
    /// the latest step, as the size promise says, and no more.
    @Test func aStateLargerThanTheLimitLeavesTheMarkerAndTheLatestStep() async throws {
        let host = ComponentHost(BigComponent())
        let recorder = SessionRecorder(host, maximumBytes: 4096)
        for _ in 0..<20 { host.root.tap.send() }
        let recording = recorder.stop()
        let lines = String(decoding: recording.jsonLines, as: UTF8.self).split(separator: "\n")
        let largestStep =
            recording.steps.map { String(decoding: try! JSONEncoder().encode($0), as: UTF8.self).utf8.count }.max() ?? 0
        #expect(lines.count == 3)  // the header, the marker, the end
        #expect(recording.dropped != nil)
        #expect(largestStep < 4096)
        await SessionReplay(recording).run(BigComponent())
        host.unmount()
    }
}
