import ComposeMachinery
import ComposeTestSupport
import Foundation
import Testing

/// Stops that would wait for each other's handlers in a ring do not: the last to come returns at
/// once, and each relay's call in progress is its last.
@Suite struct RelayStopRingTests {
    /// Two threads each handle an event of their own relay, and each handler, once both are
    /// under way, stops the other's relay. Were both stops to wait for the other's handler,
    /// neither would return.
    @Test(.timeLimit(.minutes(2)))
    func handlersStoppingEachOthersRelaysAtOnceBothReturn() async {
        let (relays, calls) = await stopInARing(of: 2)
        for relay in relays { relay.send(2) }
        #expect(calls.value == [1, 1])
    }

    /// Three relays in a ring (each handler stops the next relay): all three return.
    @Test(.timeLimit(.minutes(2)))
    func aRingOfThreeStopsReturns() async {
        let (relays, _) = await stopInARing(of: 3)
        for relay in relays { #expect(relay.isStoppedAndIdle) }
    }

    /// `count` relays, each handling one event on a thread of its own; each handler, once all
    /// are under way, stops the next relay. Expects every send to return (bounded).
    ///
    /// - Returns: The relays, and how many times each handler was called.
    private func stopInARing(of count: Int) async -> ([Relay<Int>], LockedBox<[Int]>) {
        let relays = (0..<count).map { _ in Relay<Int>() }
        let inHandler = LockedBox(0)
        let calls = LockedBox([Int](repeating: 0, count: count))
        for index in 0..<count {
            relays[index].start { _ in
                calls.mutate { $0[index] += 1 }
                inHandler.mutate { $0 += 1 }
                let deadline = ContinuousClock.now + .seconds(5)
                while inHandler.value < count, ContinuousClock.now < deadline { usleep(100) }
                relays[(index + 1) % count].stop()
            }
        }
        let returned = LockedBox(0)
        for index in 0..<count {
            startThread {
                relays[index].send(1)
                returned.mutate { $0 += 1 }
            }
        }
        #expect(await eventually { returned.value == count })
        #expect(inHandler.value == count)
        return (relays, calls)
    }

    /// A stop outside any ring still waits: a handler in progress on another thread, stopped
    /// by a thread that handles nothing, has returned before the stop does.
    @Test(.timeLimit(.minutes(2)))
    func aStopOutsideARingWaitsForTheCallInProgress() async {
        let relay = Relay<Int>()
        let progress = LockedBox(0)  // 1: entered, 2: finished
        relay.start { _ in
            progress.mutate { $0 = 1 }
            usleep(50_000)
            progress.mutate { $0 = 2 }
        }
        startThread { relay.send(1) }
        #expect(await eventually { progress.value >= 1 })
        relay.stop()
        #expect(progress.value == 2)
    }

    /// No ring once a thread has left it: thread H, handling relay R, stops relay S while thread
    /// T handles S; T's handler returns (H may still be asleep in its stop), then T stops R. That
    /// stop must wait for R's call in progress on H to return. Twenty rounds.
    ///
    /// The rounds run on a thread of their own, each waiting for its stop with a semaphore: a
    /// round that awaited on the cooperative pool would wait its turn there twenty times, behind
    /// whatever the other tests of the process hold it with.
    @Test(.timeLimit(.minutes(2)))
    func aStopAfterItsThreadLeftTheRingWaits() async {
        let outcomes = LockedBox<[Bool?]>([])  // per round: whether T's stop returned while R ran
        await onThreads(1) { _ in
            for _ in 0..<20 {
                outcomes.mutate { $0.append(Self.stopAfterLeavingTheRing()) }
            }
        }
        #expect(outcomes.value == Array(repeating: false, count: 20))
    }

    /// One round of ``aStopAfterItsThreadLeftTheRingWaits()``, on the calling thread.
    ///
    /// - Returns: Whether T's stop of R returned while R's handler was still running, or `nil`
    ///   if it had not returned after 20 seconds.
    private static func stopAfterLeavingTheRing() -> Bool? {
        let r = Relay<Int>()
        let s = Relay<Int>()
        let progress = LockedBox(0)  // 1: S's handler in, 2: R's handler stopping S, 3: R's done
        s.start { _ in
            progress.mutate { $0 = max($0, 1) }
            let deadline = ContinuousClock.now + .seconds(5)
            while progress.value < 2, ContinuousClock.now < deadline { usleep(100) }
            usleep(1_000)  // R's handler is in its stop of S by now
        }
        r.start { _ in
            let deadline = ContinuousClock.now + .seconds(5)
            while progress.value < 1, ContinuousClock.now < deadline { usleep(100) }
            progress.mutate { $0 = 2 }
            s.stop()
            usleep(20_000)
            progress.mutate { $0 = 3 }
        }
        let stoppedWhileRRan = LockedBox<Bool?>(nil)
        let stopped = DispatchSemaphore(value: 0)
        startThread {
            s.send(1)  // T: handles S
            r.stop()  // T has left S's handler: this stop waits for R's handler
            stoppedWhileRRan.mutate { $0 = progress.value < 3 }
            stopped.signal()
        }
        startThread { r.send(1) }  // H: handles R
        guard stopped.wait(timeout: .now() + 20) == .success else { return nil }
        return stoppedWhileRRan.value
    }
}
