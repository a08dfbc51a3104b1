import ComposeEmitters
import ComposeTestSupport
import Foundation
import Synchronization
import Testing

/// A subscription of every kind (see ``SubscriptionKind``) cancelled twice, or three times, at
/// once, by threads, by its own handler and by ends of the scope it joined, while a thread sends
/// to it: every cancel and end returns, and once any has returned no send that starts afterwards
/// reaches the handler; a handler on an actor or behind a relay is not called at all afterwards.
///
/// Guarantees: "Once `cancel()` returns, no later send reaches the handler"; "Once any `end()` of
/// an `ObservationScope` has returned, no handler of the scope is called"; a handler written on
/// an actor "is never called once its subscription's `cancel()` has returned".
///
/// Serialized: each round runs three or four threads that spin, which is all two cores can take.
@Suite(.serialized) struct DoubleCancelTests {
    /// How the cancels of a round are made.
    enum CancelPattern: String, CaseIterable, Sendable {
        /// Two threads call `cancel()` at once.
        case twoThreads
        /// One thread cancels while the handler cancels itself at a value that differs by round.
        case threadAndHandler
        /// Two threads cancel while a third ends the scope the subscription joined.
        case twoThreadsAndScopeEnd
        /// Two threads end the scope the subscription joined.
        case twoScopeEnds

        /// The threads that cancel or end.
        var cancellers: Int {
            switch self {
            case .twoThreads, .twoScopeEnds: 2
            case .threadAndHandler: 1
            case .twoThreadsAndScopeEnd: 3
            }
        }

        /// The cancels a round makes if the handler gets to its own.
        var cancels: Int { self == .threadAndHandler ? 2 : cancellers }

        var usesScope: Bool { self == .twoThreadsAndScopeEnd || self == .twoScopeEnds }

        /// Whether canceller `thread` (from 1) ends the scope rather than cancelling.
        func endsTheScope(_ thread: Int) -> Bool {
            self == .twoScopeEnds || (self == .twoThreadsAndScopeEnd && thread == 3)
        }
    }

    /// Rounds per kind and pattern: 116 cases of 10 rounds, light enough for the stress tests to
    /// run together under ThreadSanitizer. A `delay` calling its handler after the handler
    /// cancelled itself showed in 2 to 5 rounds of 40;
    /// `TimeOperatorTests.aDelayedHandlerThatCancelsItselfIsNotCalledAgain` holds that promise
    /// deterministically.
    static let nonisolatedRounds = 10
    static let actorRounds = 10

    @Test(.timeLimit(.minutes(2)), arguments: SubscriptionKind.nonisolated, CancelPattern.allCases)
    func noSendAfterACancelReturnedReachesANonisolatedHandler(_ kind: SubscriptionKind, _ pattern: CancelPattern) async {
        let outcome = await race(kind, pattern, rounds: Self.nonisolatedRounds)
        #expect(outcome.hung == 0, "a round did not finish within 8 s")
        #expect(outcome.late == 0, "\(outcome.late)/\(outcome.rounds) rounds heard a value sent after a cancel returned")
        if kind.strict {
            #expect(
                outcome.calledAfterClose == 0,
                "\(outcome.calledAfterClose)/\(outcome.rounds) rounds called the handler after a cancel returned")
        }
    }

    @Test(.timeLimit(.minutes(2)), arguments: SubscriptionKind.onActors, CancelPattern.allCases)
    func noCallOfAnActorHandlerBeginsAfterACancelReturned(_ kind: SubscriptionKind, _ pattern: CancelPattern) async {
        let outcome = await race(kind, pattern, rounds: Self.actorRounds)
        #expect(outcome.hung == 0, "a round did not finish within 8 s")
        #expect(
            outcome.calledAfterClose == 0,
            "\(outcome.calledAfterClose)/\(outcome.rounds) rounds called the handler after a cancel returned")
    }

    /// How the rounds of a race went.
    struct Outcome {
        var rounds = 0
        /// Rounds that did not finish in time (the race stops at the first).
        var hung = 0
        /// Rounds whose handler heard a value sent after a cancel returned.
        var late = 0
        /// Rounds whose handler was called after a cancel returned.
        var calledAfterClose = 0
    }

    /// Runs `rounds` rounds of `kind` cancelled as `pattern` says.
    private func race(_ kind: SubscriptionKind, _ pattern: CancelPattern, rounds: Int) async -> Outcome {
        var finished: [CancelRound] = []
        var outcome = Outcome()
        for index in 0..<rounds {
            guard let round = await runRound(kind, pattern, index: index) else {
                outcome.hung += 1
                break
            }
            finished.append(round)
        }
        if kind.callsLater { try? await Task.sleep(for: .milliseconds(100)) }  // late calls, if any, come
        outcome.rounds = finished.count
        outcome.late = finished.filter(\.heardALateValue).count
        outcome.calledAfterClose = finished.filter { $0.entriesAfterClose.load(ordering: .relaxed) > 0 }.count
        return outcome
    }

    /// One round: a thread sends numbered values until the cancels are done, while the cancellers
    /// wait for a send or a few, then cancel or end. Nil if the threads did not finish in 8 s.
    private func runRound(_ kind: SubscriptionKind, _ pattern: CancelPattern, index: Int) async -> CancelRound? {
        let round = CancelRound()
        let scope = ObservationScope(label: "DoubleCancelTests")
        let send: @Sendable (Int) -> Void =
            pattern.usesScope ? await scope.run { await kind.make(round) } : await kind.make(round)
        round.scope.mutate { $0 = scope }
        if pattern == .threadAndHandler { round.cancelInHandlerAt.store(1 + index % 7, ordering: .relaxed) }
        let startAt = [0, 1, 2, 3, 5, 8][index % 6]
        let threads = pattern.cancellers + 1
        let done = Atomic<Int>(0)
        for thread in 0..<threads {
            startThread {
                defer { done.add(1, ordering: .sequentiallyConsistent) }
                let deadline = ContinuousClock.now + .seconds(3)
                if thread == 0 {  // the sender: goes on for 30 sends once the cancels are done
                    var extra = 0
                    while ContinuousClock.now < deadline {
                        let value = round.counter.add(1, ordering: .sequentiallyConsistent).newValue
                        send(value)
                        let cancelled = round.cancelsDone.load(ordering: .sequentiallyConsistent)
                        if cancelled >= pattern.cancels || (cancelled >= pattern.cancellers && value > 40) {
                            extra += 1
                            if extra > 30 { break }
                        }
                    }
                    return
                }
                while round.counter.load(ordering: .relaxed) < startAt, ContinuousClock.now < deadline {}
                for _ in 0..<(index &* 31 &+ thread &* 17) % 40 { _ = round.counter.load(ordering: .relaxed) }
                if pattern.endsTheScope(thread) {
                    round.scope.value?.end()
                } else {
                    round.subscription.value?.cancel()
                }
                round.afterCancelReturned()
            }
        }
        let deadline = ContinuousClock.now + .seconds(8)
        while done.load(ordering: .sequentiallyConsistent) < threads {
            if ContinuousClock.now >= deadline { return nil }
            try? await Task.sleep(for: .microseconds(200))
        }
        return round
    }
}
