import Benchmark
import Compose

/// Session scenarios: what a `SessionRecorder` costs while it records. The peer is the same tree
/// with no recorder (the event log off), so the ratio is the recording's whole cost. Each
/// iteration records a session of its own and stops it, unmeasured, so the log is on only while
/// a recording scenario runs.
func sessionBenchmarks() {
    typing()
    consequences()
}

/// A sign-up screen, as an app has: a form whose fields the user types into (each keystroke a
/// send from outside, an input), a private field, and a submit.
struct SignUpScreen: Component {
    struct State: AnyState, Codable {
        var name = ""
        var email = ""
        @Redacted var password = ""
        var acceptsTerms = false
        var attempts = 0
        var errors: [String] = []
    }

    @Store var state: State
    let name = ValueEmitter<String>(label: "signUp.name")
    let email = ValueEmitter<String>(label: "signUp.email")
    let password = ValueEmitter<String>(label: "signUp.password", redacted: true)
    let submit = SignalEmitter(label: "signUp.submit")
    /// What a submit sets off: ten consequences (analytics, validation, a status), each a send.
    let events = ValueEmitter<Int>(label: "signUp.events")

    var observers: Void {
        name += { $state.name = $0 }
        email += { $state.email = $0 }
        password += { $state.password = $0 }
        submit += {
            for event in 0..<10 { events.send(event) }
            $state.mutate { $0.attempts += 1 }
        }
        events += { blackHole($0) }
    }
}

/// The app around the screen: a router whose start is the form.
struct SignUpApp: RouterComponent {
    let form = SignUpScreen()
    let router = Router(start: \Self.form)
    var observers: Void { None }
}

/// One keystroke at a time into the name and email fields: each send is an input, which the
/// recorder numbers, times and follows with a checkpoint of every store and router.
private func typing() {
    let keystrokes = 1_000
    for recording in [true, false] {
        let host = ComponentHost(SignUpApp())
        let name = String(repeating: "Jill Example ", count: 4)
        Benchmark(
            "Sessions/typing, one input per keystroke/\(recording ? "Compose" : "no recorder")",
            configuration: scenario(ops: keystrokes, unit: "keystrokes")
        ) { benchmark in
            // A recording per iteration, stopped after it: the event log is on only while it runs.
            let recorder = recording ? SessionRecorder(host) : nil
            let form = host.root.form
            benchmark.startMeasurement()
            for keystroke in 0..<keystrokes {
                let typed = String(name.prefix(keystroke % name.count + 1))
                if keystroke % 2 == 0 { form.name.send(typed) } else { form.email.send(typed + "@example.com") }
            }
            benchmark.stopMeasurement()
            precondition(form.state.name.hasPrefix("J"))
            if let recorder { precondition(recorder.stop().steps.count == keystrokes + 2) }
        }
    }
}

/// Taps whose handler sends ten consequences: the recorder records the tap, and the log numbers
/// every consequence without recording it as an input.
private func consequences() {
    let taps = 100
    for recording in [true, false] {
        let host = ComponentHost(SignUpApp())
        Benchmark(
            "Sessions/a tap with ten consequence sends/\(recording ? "Compose" : "no recorder")",
            configuration: scenario(ops: taps, unit: "taps")
        ) { benchmark in
            let recorder = recording ? SessionRecorder(host) : nil
            let before = host.root.form.state.attempts
            benchmark.startMeasurement()
            for _ in 0..<taps { host.root.form.submit.send() }
            benchmark.stopMeasurement()
            precondition(host.root.form.state.attempts == before + taps)
            if let recorder { precondition(recorder.stop().steps.count == taps + 2) }
        }
    }
}
