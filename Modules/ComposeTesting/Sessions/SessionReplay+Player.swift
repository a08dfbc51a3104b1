import Clocks
import Compose
import ComposeEmitters
import ComposeRouting

extension SessionReplay {
    /// One replay in progress: the tree, the clock, and where the recording is.
    struct Player<Root: Component> {
        let recording: SessionRecording
        let tester: ComponentTester<Root>
        let clock: TestClock<Duration>
        let results: ReplayedResults
        let navigator: ((Root) -> Navigator)?
        let substitutes: [String: any Sendable]

        private var tree: SessionTree { SessionTree(tester.host) }

        func play(start: Start, isolation: isolated (any Actor)?) async -> Divergence? {
            let tree = self.tree
            let states = recording.states
            let starting = recording.startingState
            let firstNumber = recording.steps.first?.number ?? 0
            // The state before the first kept step: step 0's own, or the dropped steps' last.
            var before: (number: Int, input: SessionRecording.Input?, time: Duration, state: SessionRecording.Checkpoint)? =
                recording.dropped.map { (firstNumber - 1, nil, $0.time, $0.checkpoint) }
            var now = Duration.zero
            if let dropped = recording.dropped {
                // The time the dropped steps took passes first, so that timers keep the phase they
                // had; then the stores are set to what those steps led to.
                await advance(by: dropped.time)
                now = dropped.time
            }
            if start == .recorded, let problem = restore(starting, in: tree) {
                return Divergence(step: before?.number ?? 0, input: nil, time: now, differences: [], problem: problem)
            }
            for (index, step) in recording.steps.enumerated() {
                await advance(by: max(.zero, step.time - now))
                now = max(now, step.time)
                if let divergence = compare(tree, with: before) { return divergence }
                if let input = step.input, let problem = apply(input, in: tree) {
                    return Divergence(step: step.number, input: step.input, time: step.time, differences: [], problem: problem)
                }
                before = (step.number, step.input, step.time, states[index])
            }
            await clock.settle()
            if let divergence = compare(tree, with: before) { return divergence }
            let unused = results.unused
            if !unused.isEmpty, let last = recording.steps.last {
                let names = unused.sorted { $0.key < $1.key }.map { "\($0.value) named \($0.key.debugDescription)" }
                return Divergence(
                    step: last.number, input: last.input, time: last.time, differences: [],
                    problem: "the app did not ask for recorded results: \(names.joined(separator: ", "))")
            }
            return nil
        }

        /// Advances the clock by `duration`, at most 100 ms at a time, letting what became due run
        /// after each: a timer wakes at each of its ticks, as it did when the session was recorded,
        /// rather than once for a long gap (a timer skips the ticks it missed).
        private func advance(by duration: Duration, isolation: isolated (any Actor)? = #isolation) async {
            var left = duration
            repeat {
                let step = min(left, .milliseconds(100))
                await clock.settle(by: step)
                left -= step
            } while left > .zero
        }

        /// The divergence, if the tree's state is not `before`'s, or the app asked for results
        /// the recording does not have.
        private func compare(
            _ tree: SessionTree,
            with before: (number: Int, input: SessionRecording.Input?, time: Duration, state: SessionRecording.Checkpoint)?
        ) -> Divergence? {
            guard let before else { return nil }
            let problems = results.takeProblems()
            if let problem = problems.first {
                return Divergence(step: before.number, input: before.input, time: before.time, differences: [], problem: problem)
            }
            let missing = results.takeMissing()
            if !missing.isEmpty {
                return Divergence(
                    step: before.number, input: before.input, time: before.time, differences: [],
                    problem:
                        "the app asked for results the recording does not have: \(missing.map(\.debugDescription).joined(separator: ", "))"
                )
            }
            let differences = SessionReplay.differences(recorded: before.state, replayed: tree.checkpoint())
            guard !differences.isEmpty else { return nil }
            return Divergence(step: before.number, input: before.input, time: before.time, differences: differences, problem: nil)
        }

        /// Sets each store whose state differs from `starting` to it; a problem if one cannot be.
        private func restore(_ starting: SessionRecording.Checkpoint, in tree: SessionTree) -> String? {
            let now = tree.checkpoint()
            for (name, recorded) in starting.stores.sorted(by: { $0.key < $1.key }) where now.stores[name] != recorded {
                if let problem = tester.run({ set(name, to: recorded, in: tree) }) {
                    return "the recording's starting state cannot be set: \(problem)"
                }
            }
            return nil
        }

        /// Sets the store `name` to `state`, as recorded; a problem if it cannot be.
        private func set(_ name: String, to state: SessionRecording.StoreState, in tree: SessionTree) -> String? {
            guard case .value(let value) = state else {
                return "\(name)'s state was recorded by its description, which cannot be set"
            }
            let (path, property) = Self.split(name)
            guard let store = tree.property(property, at: path) else {
                return "the replayed tree has no store \(name)"
            }
            guard let restorable = store as? any SessionRestorableStore else {
                return "\(name)'s state is not Decodable"
            }
            do {
                try restorable.restore(from: value)
            } catch {
                return "\(name) cannot be set to the recorded state: \(error)"
            }
            return nil
        }

        /// Applies `input`; a problem if it cannot be replayed.
        private func apply(_ input: SessionRecording.Input, in tree: SessionTree) -> String? {
            // What the app did then it does now: a refusal it reported then is not a failure now.
            tester.run {
                Diagnostics.withHandler({ _ in }) { applyNow(input, in: tree) }
            }
        }

        private func applyNow(_ input: SessionRecording.Input, in tree: SessionTree) -> String? {
            switch input {
            case .send(let send):
                return replay(send, in: tree)
            case .binding(let binding):
                let name = "\(binding.component).\(binding.store)"
                guard binding.redacted == true else { return set(name, to: binding.state, in: tree) }
                guard let substitute = substitutes[name], case .value(let recorded) = binding.state else {
                    return "it writes a redacted value; pass one in `substitutes` under \(name.debugDescription)"
                }
                guard let encodable = substitute as? any Encodable, let value = try? SessionValue(encoding: encodable) else {
                    return "the substitute for \(name.debugDescription) is not Encodable"
                }
                return set(name, to: .value(recorded.replacingRedacted(with: value)), in: tree)
            case .navigation(let navigation):
                guard let router = tree.property(navigation.router, at: navigation.component) as? Router else {
                    return "the replayed tree has no router \(navigation.component).\(navigation.router)"
                }
                switch navigation.action {
                case "pop": router.pop()
                case "popToRoot": router.popToRoot()
                case "navigationPath":
                    let current = router.navigationPath
                    guard navigation.routes.count <= current.count else {
                        return "the recorded navigation path \(navigation.routes) is longer than the replayed one"
                    }
                    router.navigationPath = Array(current.prefix(navigation.routes.count))
                default:
                    return
                        "a \(navigation.action) made outside any handler cannot be replayed (only pops and shorter navigation paths)"
                }
                return nil
            case .link(let path):
                guard let navigator else { return "it opens \(path), and the replay was given no navigator" }
                do {
                    try tester.host.navigate(to: RoutingPath(parsing: path), with: navigator(tester.root))
                } catch {
                    // Refused now as then, or not: the next checkpoint tells.
                }
                return nil
            case .dismissal(let component, let field):
                guard let presentation = tree.property(field, at: component) as? any ComponentPresentation else {
                    return "the replayed tree has no dynamic component \(component).\(field)"
                }
                presentation.dismiss(fileID: #fileID, line: #line)
                return nil
            case .visibility(let component, let visible):
                guard let node = tree.node(at: component) else { return "the replayed tree has no component \(component)" }
                tester.host.setVisible(node, visible)
                return nil
            case .end:
                return nil
            }
        }

        private func replay(_ send: SessionRecording.Input.Send, in tree: SessionTree) -> String? {
            guard let emitter = tree.property(send.emitter, at: send.component) else {
                return "the replayed tree has no emitter \(send.component).\(send.emitter)"
            }
            if let signal = emitter as? SignalEmitter {
                signal.send()
                return nil
            }
            if send.redacted == true {
                let key = send.label ?? "\(send.component).\(send.emitter)"
                guard let substitute = substitutes[key] else {
                    return "the value is redacted; pass one in `substitutes` under \(key.debugDescription)"
                }
                guard let emitter = emitter as? any SessionSubstitutableEmitter, emitter.send(substitute: substitute) else {
                    return "the substitute for \(key.debugDescription) is not of the emitter's value type"
                }
                return nil
            }
            guard let value = send.value else {
                return "its value (\(send.valueDescription ?? "?")) was not Encodable, so it was not recorded"
            }
            guard let decoding = emitter as? any SessionReplayableEmitter else {
                return "the emitter's value type is not Decodable"
            }
            do {
                try decoding.send(decoding: value)
            } catch {
                return "its value \(value) does not decode: \(error)"
            }
            return nil
        }

        /// `("NotesApp/list", "state")` from `NotesApp/list.state`.
        static func split(_ name: String) -> (path: String, property: String) {
            guard let dot = name.lastIndex(of: ".") else { return (name, "") }
            return (String(name[..<dot]), String(name[name.index(after: dot)...]))
        }
    }
}
