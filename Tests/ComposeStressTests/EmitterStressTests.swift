import ComposeEmitters
import ComposeMachinery
import ComposeTestSupport
import Testing

/// 8 workers send, subscribe and cancel on shared emitters, 100,000 operations each, and every
/// subscriber that was live for the whole run gets every value exactly once, each sender's in
/// the order it sent them. The workers are threads (see ``onThreads(_:_:)``). Run under
/// ThreadSanitizer in CI.
@Suite struct EmitterStressTests {
    static let workers = 8
    static let operations = 100_000
    /// Short-lived subscribers a worker holds at most, so each send reaches a bounded number of
    /// handlers and the run measures contention, not fan-out.
    static let shortLivedLimit = 4

    /// A value: who sent it, and its place among that sender's values.
    struct Stamp: Sendable {
        let sender: Int
        let sequence: Int
    }

    /// Checks a stream of stamps as it arrives: never a duplicate, never out of order per sender.
    ///
    /// The emitter never calls it concurrently; the lock is for whoever reads it while a
    /// delivery that started before its subscription was cancelled may still be calling it.
    final class Checker: Sendable {
        private struct State {
            var next: [Int]
            var received = 0
            var problems: [String] = []
        }

        private let state: LockedState<State>
        /// For a subscriber that joined late: accepts any first value per sender.
        let lenient: Bool

        init(senders: Int, lenient: Bool = false) {
            state = LockedState(State(next: Array(repeating: 0, count: senders)))
            self.lenient = lenient
        }

        var received: Int { state.withLock { $0.received } }
        var problems: [String] { state.withLock { $0.problems } }

        func receive(_ stamp: Stamp) {
            state.withLock { state in
                state.received += 1
                let expected = state.next[stamp.sender]
                if stamp.sequence < expected || (!lenient && stamp.sequence != expected), state.problems.count < 5 {
                    state.problems.append("sender \(stamp.sender): got \(stamp.sequence), expected \(expected)")
                }
                state.next[stamp.sender] = stamp.sequence + 1
            }
        }
    }

    @Test(.timeLimit(.minutes(5)))
    func sendSubscribeAndCancelFromEightThreads() async {
        let emitters = [ValueEmitter<Stamp>(label: "stress.a"), ValueEmitter<Stamp>(label: "stress.b")]
        // Subscribers live for the whole run: they must see everything, in order.
        let whole = emitters.map { _ in Checker(senders: Self.workers) }
        let wholeSubscriptions = zip(emitters, whole).map { emitter, checker in
            emitter.register { checker.receive($0) }
        }
        let sent = LockedBox(Array(repeating: 0, count: emitters.count))
        let shortLived = Recorder<String>()

        await onThreads(Self.workers) { worker in
            var generator = SplitMix64(seed: UInt64(worker))
            var sequence = Array(repeating: 0, count: emitters.count)
            var mine: [(EmitterSubscription, Checker)] = []
            for _ in 0..<Self.operations {
                let which = Int.random(in: 0..<emitters.count, using: &generator)
                switch Int.random(in: 0..<10, using: &generator) {
                case 0..<7:  // send
                    emitters[which].send(Stamp(sender: worker, sequence: sequence[which]))
                    sequence[which] += 1
                case 7...8 where mine.count < Self.shortLivedLimit:  // subscribe a short-lived one
                    let checker = Checker(senders: Self.workers, lenient: true)
                    mine.append((emitters[which].register { checker.receive($0) }, checker))
                default:  // cancel one (also when this worker already has its limit)
                    guard !mine.isEmpty else { continue }
                    let (subscription, checker) = mine.remove(at: Int.random(in: mine.indices, using: &generator))
                    subscription.cancel()
                    for problem in checker.problems { shortLived.record(problem) }
                }
            }
            for (subscription, checker) in mine {
                subscription.cancel()
                for problem in checker.problems { shortLived.record(problem) }
            }
            sent.mutate { totals in
                for index in totals.indices { totals[index] += sequence[index] }
            }
        }
        for subscription in wholeSubscriptions { subscription.cancel() }
        let totals = sent.value
        for (index, checker) in whole.enumerated() {
            #expect(checker.received == totals[index], "emitter \(index): \(checker.received) of \(totals[index])")
            #expect(checker.problems.isEmpty, "\(checker.problems)")
        }
        #expect(shortLived.values.isEmpty, "\(shortLived.values.prefix(5))")
        #expect(emitters.allSatisfy { $0.subscriberCount == 0 })
    }
}
