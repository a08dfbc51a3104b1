import ComposeEmitters
import ComposeTestSupport
import Foundation
import Synchronization
import Testing

/// Rings of scopes whose handlers end each other's scopes at once, through `merge` (an inline
/// relay of its own per subscription).
///
/// Guarantees: "Ends never wait for each other"; "Once any `end()` of an `ObservationScope` has
/// returned, no handler of the scope is called".
@Suite struct MergeEndRingTests {
    static let rounds = 50

    /// `count` scopes, each with a `merge` subscription whose nonisolated handler ends the next
    /// scope of the ring; `count` threads send at once, so every handler ends its neighbour's
    /// scope while that scope's handler runs on another thread. Every send returns, and no
    /// handler of an ended scope is called by a later send.
    @Test(.timeLimit(.minutes(2)), arguments: [2, 3])
    func mergeHandlersEndingEachOthersScopesInARingAllReturn(count: Int) async {
        let hung = Atomic<Int>(0)
        let lateCalls = Atomic<Int>(0)
        await onThreads(1) { _ in
            for _ in 0..<Self.rounds {
                let scopes = (0..<count).map { ObservationScope(label: "ring \($0)") }
                let sources = (0..<count).map { _ in (ValueEmitter<Int>(), ValueEmitter<Int>()) }
                let inHandler = Atomic<Int>(0)
                for index in 0..<count {
                    let next = scopes[(index + 1) % count]
                    let mine = scopes[index]
                    mine.run {
                        _ =
                            sources[index].0.merge(with: sources[index].1) += { value in
                                if value == 2, mine.isEnded { lateCalls.add(1, ordering: .relaxed) }
                                guard value == 1 else { return }
                                inHandler.add(1, ordering: .relaxed)
                                let deadline = ContinuousClock.now + .milliseconds(200)
                                while inHandler.load(ordering: .relaxed) < count, ContinuousClock.now < deadline {}
                                next.end()
                            }
                    }
                }
                let done = Atomic<Int>(0)
                for index in 0..<count {
                    startThread {
                        sources[index].0.send(1)
                        done.add(1, ordering: .relaxed)
                    }
                }
                // Long: under ThreadSanitizer, with the other stress tests on both cores, a round
                // that deadlocks never finishes, while a slow one can take many seconds.
                let deadline = ContinuousClock.now + testWaitLimit
                while done.load(ordering: .relaxed) < count, ContinuousClock.now < deadline { usleep(50) }
                if done.load(ordering: .relaxed) < count {
                    hung.add(1, ordering: .relaxed)
                    return
                }
                for index in 0..<count { sources[index].1.send(2) }
            }
        }
        #expect(hung.load(ordering: .relaxed) == 0, "a ring of ends deadlocked")
        #expect(lateCalls.load(ordering: .relaxed) == 0, "a handler of an ended scope was called by a later send")
    }
}
