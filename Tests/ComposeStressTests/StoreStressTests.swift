import ComposeEmitters
import ComposeMachinery
import ComposeStore
import ComposeTestSupport
import Testing

/// 8 workers (threads, see ``onThreads(_:_:)``) mutate one store, read it, and add and cancel
/// observers, 100,000 operations each, while observers that live for the whole run check every
/// notification: `didChange` and `willChange` hear each commit exactly once and in commit order,
/// and a keypath observer hears only newer values and ends on the final one. Run under
/// ThreadSanitizer in CI.
@Suite struct StoreStressTests {
    static let workers = 8
    static let operations = 100_000
    static let shortLivedLimit = 4

    /// `version` counts commits; `counts[w]` counts worker `w`'s. Every commit keeps
    /// `version == counts.reduce(0, +)`, so a torn or lost write shows.
    struct Counters: AnyState {
        var version = 0
        var counts = Array(repeating: 0, count: StoreStressTests.workers)
        var note = ""
    }

    /// Follows a stream of versions. The store never calls it concurrently; the lock is for
    /// whoever reads it while a notification that started before its observer was cancelled may
    /// still be calling it.
    final class VersionChecker: Sendable {
        private struct State {
            var last: Int
            var heard = 0
            var problems: [String] = []
        }

        private let state: LockedState<State>
        /// Whether every version must be heard (`didChange`, `willChange`) or only newer ones
        /// (keypath observers, which coalesce).
        let exact: Bool

        init(exact: Bool, startingAfter last: Int = 0) {
            self.exact = exact
            state = LockedState(State(last: last))
        }

        var lastVersion: Int { state.withLock { $0.last } }
        var heard: Int { state.withLock { $0.heard } }
        var problems: [String] { state.withLock { $0.problems } }

        func hear(_ version: Int, previous: Int? = nil, consistent: Bool = true) {
            state.withLock { state in
                state.heard += 1
                let wrongOrder = exact ? version != state.last + 1 : version <= state.last
                if wrongOrder || (previous != nil && previous != state.last) || !consistent, state.problems.count < 5 {
                    state.problems.append(
                        "heard \(version) (previous \(previous.map(String.init) ?? "-")) after \(state.last); consistent: \(consistent)"
                    )
                }
                state.last = version
            }
        }

        /// Whether a state is internally consistent.
        static func isConsistent(_ state: Counters) -> Bool {
            state.version == state.counts.reduce(0, +)
        }
    }

    @Test(.timeLimit(.minutes(5)))
    func mutateAndObserveFromEightThreads() async {
        @Store var state = Counters()
        let store = $state
        // A keyed read (`store.version`, below) sets up the one internal observer that reports
        // `version` to Observation; it stays for the store's life. Everything else must go.
        _ = store.version
        let baseline = store.observerCount

        let didChange = VersionChecker(exact: true)
        let willChange = VersionChecker(exact: true)
        let versionObserver = VersionChecker(exact: false)
        let whole = [
            store.didChange.register { change in
                didChange.hear(
                    change.new.version, previous: change.old.version,
                    consistent: VersionChecker.isConsistent(change.old) && VersionChecker.isConsistent(change.new))
            },
            store.willChange.register { state in
                willChange.hear(state.version, consistent: VersionChecker.isConsistent(state))
            },
            store.observe(\.version) { version in versionObserver.hear(version) },
        ]
        let problems = Recorder<String>()
        let commits = LockedBox(Array(repeating: 0, count: Self.workers))

        await onThreads(Self.workers) { worker in
            var generator = SplitMix64(seed: UInt64(100 + worker))
            var mine = 0
            var observers: [(EmitterSubscription, VersionChecker)] = []
            func retire(_ entry: (EmitterSubscription, VersionChecker)) {
                entry.0.cancel()
                for problem in entry.1.problems { problems.record("short-lived: \(problem)") }
            }
            for _ in 0..<Self.operations {
                switch Int.random(in: 0..<10, using: &generator) {
                case 0..<6:  // commit
                    store.mutate { state in
                        state.version += 1
                        state.counts[worker] += 1
                    }
                    mine += 1
                case 6:  // a write that changes nothing must notify nobody
                    store.mutate { state in state.note = state.note }
                case 7:  // read: never a torn state
                    let snapshot = store.state
                    if !VersionChecker.isConsistent(snapshot) {
                        problems.record("torn read: \(snapshot.version) vs \(snapshot.counts)")
                    }
                    if snapshot.counts[worker] != mine {
                        problems.record("worker \(worker) reads \(snapshot.counts[worker]) of its \(mine) commits")
                    }
                case 8 where observers.count < Self.shortLivedLimit:  // a short-lived observer
                    let checker = VersionChecker(exact: false, startingAfter: store.version - 1)
                    observers.append((store.observe(\.version) { checker.hear($0) }, checker))
                default:
                    if !observers.isEmpty {
                        retire(observers.remove(at: Int.random(in: observers.indices, using: &generator)))
                    }
                }
            }
            observers.forEach(retire)
            commits.mutate { $0[worker] = mine }
        }
        whole.forEach { $0.cancel() }

        let perWorker = commits.value
        let total = perWorker.reduce(0, +)
        #expect(state.version == total)
        #expect(state.counts == perWorker)
        #expect(didChange.heard == total)
        #expect(willChange.heard == total)
        #expect(versionObserver.lastVersion == total)
        #expect(versionObserver.heard <= total)
        for checker in [didChange, willChange, versionObserver] {
            #expect(checker.problems.isEmpty, "\(checker.problems)")
        }
        #expect(problems.values.isEmpty, "\(problems.values.prefix(5))")
        #expect(store.observerCount == baseline)
    }
}
