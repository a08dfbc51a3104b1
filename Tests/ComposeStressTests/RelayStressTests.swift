import ComposeMachinery
import ComposeTestSupport
import Foundation
import Synchronization
import Testing

/// Compose's serial executor under contention.
@Suite struct RelayStressTests {
    /// Four threads queue in a tight loop, each until the handler (which takes a microsecond)
    /// has handled 5,000 events: the thread holding the delivery role keeps getting the lock to
    /// take the next event, although the others release and retake it in a tight loop. (A
    /// spin lock tried for the delivery state lost this race: the holder waited for as long as
    /// the others ran, and they ran until it had handled enough.)
    @Test(.timeLimit(.minutes(1)))
    func threadsQueueingInATightLoopDoNotStarveTheDeliveringThread() async {
        let relay = Relay<Int>()
        let handled = Atomic<Int>(0)
        relay.start { _ in
            let start = ContinuousClock.now
            while ContinuousClock.now - start < .microseconds(1) {}
            handled.add(1, ordering: .relaxed)
        }
        let deadline = ContinuousClock.now + .seconds(20)
        await onThreads(4) { _ in
            var sent = 0
            while handled.load(ordering: .relaxed) < 5_000, ContinuousClock.now < deadline {
                relay.enqueue(sent)
                relay.drain()
                sent += 1
            }
        }
        relay.drain()
        #expect(handled.load(ordering: .relaxed) >= 5_000)
        #expect(ContinuousClock.now < deadline, "the delivering thread starved")
        #expect(relay.backlog == 0)
    }

    /// Eight threads send 20,000 events each: every event is handled exactly once, each
    /// thread's in the order it sent them, never two at once.
    @Test func everyEventIsHandledOnceInEachSendersOrder() async {
        let relay = Relay<(thread: Int, index: Int)>()
        let last = LockedBox([Int](repeating: -1, count: 8))
        let disorder = Atomic<Int>(0)
        let overlap = Atomic<Int>(0)
        let inside = Atomic<Int>(0)
        relay.start { event in
            if inside.add(1, ordering: .relaxed).newValue != 1 { overlap.add(1, ordering: .relaxed) }
            let previous = last.mutate { last in
                defer { last[event.thread] = event.index }
                return last[event.thread]
            }
            if previous != event.index - 1 { disorder.add(1, ordering: .relaxed) }
            inside.subtract(1, ordering: .relaxed)
        }
        await onThreads(8) { thread in
            for index in 0..<20_000 { relay.send((thread, index)) }
        }
        #expect(disorder.load(ordering: .relaxed) == 0)
        #expect(overlap.load(ordering: .relaxed) == 0)
        #expect(last.value.allSatisfy { $0 == 19_999 })
    }
}
