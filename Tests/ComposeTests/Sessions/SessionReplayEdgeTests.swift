import Compose
import ComposeMachinery
import ComposeTesting
import Foundation
import Testing

private struct Card: Component {
    struct State: AnyState, Codable { var taps = 0 }
    @Store var state: State
    let tap = SignalEmitter(label: "card.tap")
    var observers: Void {
        tap += { $state.mutate { $0.taps += 1 } }
    }
}

private struct Board: RouterComponent {
    struct State: AnyState, Codable { var opened = 0 }
    @Store var state: State
    let cards = InstanceComponent<Card>()
    let router = Router(label: "board")
    let open = SignalEmitter(label: "board.open")
    var observers: Void {
        open += {
            $state.mutate { $0.opened += 1 }
            router.push(\Self.cards, instance: cards.create(Card()))
        }
    }
}

/// A log-in form whose password is typed in a secure field (a binding), and whose submit checks it.
private struct SecureForm: Component {
    struct State: AnyState, Codable {
        @Redacted var password = ""
        var attempts = 0
    }
    @Store var state: State
    let submit = SignalEmitter(label: "secure.submit")
    var observers: Void {
        submit += { if !state.password.isEmpty { $state.mutate { $0.attempts += 1 } } }
    }
}

@Suite(.composeSandbox(clock: .test))
struct SessionReplayEdgeTests {
    /// Instances named as the session saw them: a whole recording replays.
    @Test func instancesAreNumberedAlikeInTheReplay() async throws {
        let host = ComponentHost(Board())
        let recorder = SessionRecorder(host)
        for _ in 0..<3 {
            host.root.open.send()
            host.root.router.pop()
        }
        let recording = recorder.stop()
        let divergence = await SessionReplay(recording).firstDivergence(Board())
        #expect(divergence == nil, "\(divergence.map { "\($0)" } ?? "")")
        host.unmount()
    }

    /// A password typed through a binding: the replay cannot have it, says so, and replays with a
    /// substitute.
    @Test func aPasswordTypedThroughABindingNeedsASubstitute() async throws {
        let host = ComponentHost(SecureForm())
        let recorder = SessionRecorder(host)
        host.root.$state.binding.password.wrappedValue = "hunter2"
        host.root.submit.send()
        #expect(host.root.state.attempts == 1)
        let recording = recorder.stop()
        let divergence = await SessionReplay(recording).firstDivergence(SecureForm())
        #expect(divergence?.step == 1)
        #expect(divergence?.problem == #"it writes a redacted value; pass one in `substitutes` under "SecureForm.state""#)
        let substituted = await SessionReplay(recording).firstDivergence(SecureForm(), substitutes: ["SecureForm.state": "any"])
        #expect(substituted == nil, "\(substituted.map { "\($0)" } ?? "")")
        host.unmount()
    }

    /// A hostile file is refused with a FormatError, never a trap.
    @Test func aTimePastWhatADurationHoldsIsRefused() throws {
        let text = #"""
            {"format":"compose-session","maximumBytes":4096,"root":"X","version":1}
            {"checkpoint":{},"step":0,"time":1e300}
            """#
        #expect(throws: SessionRecording.FormatError.self) { try SessionRecording(jsonLines: Data(text.utf8)) }
    }

    /// Times are read back as written: to the nanosecond under 2^23 s, within 2 µs up to the
    /// largest a `Duration` of nanoseconds holds, which reads back as itself.
    @Test func timesReadBackAsWritten() throws {
        func readBack(_ time: Duration) throws -> Duration {
            let recording = SessionRecording(
                root: "X", maximumBytes: 4096, steps: [.init(number: 0, time: time, input: nil, checkpoint: .init())])
            return try SessionRecording(jsonLines: recording.jsonLines).steps[0].time
        }
        for seconds: Int64 in [0, 1, 1_000, 1_000_000, 8_000_000] {
            for nanoseconds: Int64 in [0, 1, 7, 999_999_999] {
                let time = Duration.seconds(seconds) + .nanoseconds(nanoseconds)
                #expect(try readBack(time) == time)
            }
        }
        // Random times under 2^23 s, most of them in the last doubling, where a double's step is
        // closest to a nanosecond.
        var generator = SystemRandomNumberGenerator()
        for index in 0..<5_000 {
            let low: Int64 = index.isMultiple(of: 4) ? 0 : 4_194_304 * 1_000_000_000
            let time = Duration.nanoseconds(Int64.random(in: low..<(8_388_608 * 1_000_000_000), using: &generator))
            let read = try readBack(time)
            #expect(read == time, "\(time) read back as \(read)")
            if read != time { break }
        }
        for seconds: Int64 in [9_000_000, 1_000_000_000, 9_000_000_000] {
            let time = Duration.seconds(seconds) + .nanoseconds(123_456_789)
            let read = try readBack(time)
            #expect(read - time < .microseconds(2) && time - read < .microseconds(2))
        }
        let largest = Duration.nanoseconds(Int64.max)
        #expect(try readBack(largest) == largest)
    }

    @Test func stepNumbersAtTheEndOfIntAreRefused() throws {
        let text = #"""
            {"format":"compose-session","maximumBytes":4096,"root":"X","version":1}
            {"dropped":{"checkpoint":{},"steps":9223372036854775807,"time":0}}
            {"checkpoint":{},"step":9223372036854775807,"time":0}
            {"checkpoint":{},"step":0,"time":0}
            """#
        #expect(throws: SessionRecording.FormatError.self) { try SessionRecording(jsonLines: Data(text.utf8)) }
    }
}
