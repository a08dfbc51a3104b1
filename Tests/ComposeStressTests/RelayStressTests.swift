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
    /// the others ran, and they ran until it had handled enough.) Alone the test takes a few
    /// hundredths of a second; run with the whole suite on two cores it once took 36 seconds,
    /// so the deadline that stands for starvation is a minute.
    @Test(.timeLimit(.minutes(5)))
    func threadsQueueingInATightLoopDoNotStarveTheDeliveringThread() async {
        let relay = Relay<Int>()
        let handled = Atomic<Int>(0)
        relay.start { _ in
            let start = ContinuousClock.now
            while ContinuousClock.now - start < .microseconds(1) {}
            handled.add(1, ordering: .relaxed)
        }
        let deadline = ContinuousClock.now + testWaitLimit
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

    /// A store's way of using a relay: four threads number events under a lock of their own and
    /// hand each to the relay in the same hold (``Relay/takeTheRoleIfIdle()``, then
    /// ``Relay/keepTaken(_:)`` or ``Relay/enqueue(_:)``), handling it themselves when they took
    /// the role; a fifth queues events without that lock, and the handler posts a follow-up now
    /// and then, which must be queued, not taken. Every numbered event is handled once, in the
    /// lock's order, never two at once, whichever thread handles it.
    @Test func eventsPostedUnderTheOwnersLockAreHandledInItsOrder() async {
        let relay = Relay<Int>()
        let owner = LockedBox(0)  // the next number
        let lastNumbered = Atomic<Int>(-1)
        let disorder = Atomic<Int>(0)
        let overlap = Atomic<Int>(0)
        let inside = Atomic<Int>(0)
        let unnumbered = Atomic<Int>(0)
        let takenInsideTheHandler = Atomic<Int>(0)
        // Under the owner's lock: numbers an event and posts it. Returns it if this thread took
        // the role (it handles it after the lock).
        let post: @Sendable () -> Int? = {
            owner.mutate { next in
                defer { next += 1 }
                guard relay.takeTheRoleIfIdle() else {
                    relay.enqueue(next)
                    return nil
                }
                relay.keepTaken(next)
                return next
            }
        }
        let handle: @Sendable (Int) -> Void = { event in
            if inside.add(1, ordering: .relaxed).newValue != 1 { overlap.add(1, ordering: .relaxed) }
            if event < 0 {
                unnumbered.add(1, ordering: .relaxed)
            } else {
                if lastNumbered.exchange(event, ordering: .relaxed) != event - 1 { disorder.add(1, ordering: .relaxed) }
                if event % 97 == 0 {
                    // A handler's post finds the role taken: queued behind what waits.
                    if post() != nil { takenInsideTheHandler.add(1, ordering: .relaxed) }
                    relay.drain()
                }
            }
            inside.subtract(1, ordering: .relaxed)
        }
        relay.start(handle)
        let rounds = 40_000
        await onThreads(5) { thread in
            for index in 0..<rounds {
                if thread == 4 {
                    relay.enqueue(-1 - index)
                    relay.drain()
                } else if let event = post() {
                    relay.handleTaken { handled in
                        if handled != event { disorder.add(1, ordering: .relaxed) }
                        handle(handled)
                    }
                } else {
                    relay.drain()
                }
            }
        }
        let posted = owner.value
        #expect(posted > 4 * rounds, "the handler posted follow-ups")
        #expect(lastNumbered.load(ordering: .relaxed) == posted - 1, "every numbered event was handled")
        #expect(disorder.load(ordering: .relaxed) == 0)
        #expect(overlap.load(ordering: .relaxed) == 0)
        #expect(unnumbered.load(ordering: .relaxed) == rounds)
        #expect(takenInsideTheHandler.load(ordering: .relaxed) == 0)
        #expect(relay.backlog == 0)
        // How many posts took the role above depends on the scheduler (under ThreadSanitizer a
        // draining thread can hold it for the whole run, and none does); an idle relay's role
        // is taken by the next post, whose event is the one handed back.
        let next = post()
        #expect(next == posted, "a post to an idle relay takes the role")
        var handedBack: Int?
        relay.handleTaken { handedBack = $0 }
        #expect(handedBack == posted)
        #expect(relay.backlog == 0)
    }

    /// Two threads send while a third stops the relay once the handler is running, 300 rounds:
    /// the handler is never entered after `stop()` returned (the stopper raises a flag then, and
    /// the handler looks at it first), and it is released once stopped.
    @Test(.timeLimit(.minutes(5)))
    func nothingIsHandledOnceStopHasReturned() async {
        let enteredAfterStop = Atomic<Int>(0)
        for _ in 0..<300 {
            let relay = Relay<Int>()
            let stopped = Atomic<Bool>(false)
            let running = DispatchSemaphore(value: 0)
            let released = Atomic<Bool>(false)
            relay.start(
                Self.handler(releasing: { released.store(true, ordering: .releasing) }) { value in
                    if stopped.load(ordering: .acquiring) { enteredAfterStop.add(1, ordering: .relaxed) }
                    if value == 0 { running.signal() }
                    let start = ContinuousClock.now
                    while ContinuousClock.now - start < .microseconds(2) {}
                })
            await onThreads(3) { thread in
                if thread < 2 {
                    for index in 0..<200 { relay.send(thread * 1_000 + index) }
                } else {
                    running.wait()  // a handler call is under way on another thread
                    relay.stop()
                    stopped.store(true, ordering: .releasing)
                }
            }
            let wasReleased = released.load(ordering: .acquiring)
            #expect(wasReleased, "a stopped relay releases its handler")
        }
        #expect(enteredAfterStop.load(ordering: .relaxed) == 0)
    }

    /// `body`, holding what calls `onRelease` when the handler is released.
    private static func handler(
        releasing onRelease: @escaping @Sendable () -> Void,
        _ body: @escaping @Sendable (Int) -> Void
    ) -> @Sendable (Int) -> Void {
        let watcher = ReleaseWatcher(onRelease)
        return { value in
            _ = watcher
            body(value)
        }
    }
}

/// Calls `onRelease` when released.
private final class ReleaseWatcher: Sendable {
    let onRelease: @Sendable () -> Void

    init(_ onRelease: @escaping @Sendable () -> Void) {
        self.onRelease = onRelease
    }

    deinit { onRelease() }
}
