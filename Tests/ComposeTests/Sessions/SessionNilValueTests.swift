import Compose
import ComposeMachinery
import ComposeTesting
import Foundation
import Testing

/// A picker whose value may be cleared (nil), and a cache lookup that may find nothing (nil).
private struct PickerComponent: Component {
    struct State: AnyState, Codable {
        var choice: String? = "a"
        var cached: String? = "?"
        var looks = 0
    }
    @Store var state: State
    let pick = ValueEmitter<String?>(label: "picker.pick")
    let look = SignalEmitter(label: "picker.look")
    var observers: Void {
        pick += { choice in $state.choice = choice }
        look += {
            let found: String?
            do { found = try SessionRecorder.result(named: "cache.lookup") { () -> String? in nil } } catch {
                found = "threw: \(error)"
            }
            $state.mutate {
                $0.cached = found
                $0.looks += 1
            }
        }
    }
}

@Suite(.composeSandbox(clock: .test))
struct SessionNilValueTests {
    @Test func aSentNilSurvivesTheFile() async throws {
        let host = ComponentHost(PickerComponent())
        let recorder = SessionRecorder(host)
        host.root.pick.send(nil)
        let recording = recorder.stop()
        let read = try SessionRecording(jsonLines: recording.jsonLines)
        #expect(
            read == recording,
            "step 1 as written: \(String(describing: recording.steps[1].input)); as read: \(String(describing: read.steps[1].input))"
        )
        let divergence = await SessionReplay(read).firstDivergence(PickerComponent())
        #expect(divergence == nil, "\(divergence.map { "\($0)" } ?? "")")
        host.unmount()
    }

    @Test func aNilResultSurvivesTheFile() async throws {
        let host = ComponentHost(PickerComponent())
        let recorder = SessionRecorder(host)
        host.root.look.send()
        #expect(host.root.state.cached == nil)
        let recording = recorder.stop()
        let read = try SessionRecording(jsonLines: recording.jsonLines)
        #expect(read == recording)
        let divergence = await SessionReplay(read).firstDivergence(PickerComponent())
        #expect(divergence == nil, "\(divergence.map { "\($0)" } ?? "")")
        host.unmount()
    }
}
