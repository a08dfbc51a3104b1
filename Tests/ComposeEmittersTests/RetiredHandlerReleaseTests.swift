import ComposeTestSupport
import Foundation
import Testing

@testable import ComposeEmitters

/// A handler cancelled during a delivery is kept (in a retired buffer of handlers) until that
/// delivery ends, and released then, whoever takes the delivery role next.
@Suite struct RetiredHandlerReleaseTests {
    /// Thread D delivers a value; the first handler holds it up while the test cancels the
    /// second handler, which the emitter retires until D's delivery ends. As D gives the role
    /// up, a registration that waited for the emitter's lock takes it: with `replays`, a
    /// `withCurrent()` one, whose replay of the current value runs long; without, the contrast,
    /// a plain one that does not take the role. Either way the cancelled handler is released by
    /// the time D's send has returned, not when the replay ends.
    ///
    /// Guarantees: "a handler cancelled during a delivery is released when that delivery ends".
    @Test(.timeLimit(.minutes(5)), arguments: [true, false])
    func aHandlerCancelledDuringADeliveryIsReleasedWhenItEnds(nextRegistrationReplays replays: Bool) async {
        let emitter = ValueEmitter<Int>()
        let holdFirst = Flag()
        let inFirst = Flag()
        let released = Flag()
        let holdReplay = Flag()
        let inReplay = Flag()
        defer {
            holdFirst.raise()
            holdReplay.raise()
        }
        _ =
            emitter += { _ in
                inFirst.raise()
                let deadline = ContinuousClock.now + .seconds(120)  // released by the test; long under load
                while !holdFirst.isRaised, ContinuousClock.now < deadline { usleep(100) }
            }
        let second: EmitterSubscription
        do {
            let watcher = DeinitWatcher { released.raise() }
            second = emitter += { _ in _ = watcher }
        }
        let sendReturned = Flag()
        startThread {  // D
            emitter.send(1)
            sendReturned.raise()
        }
        #expect(await eventually(timeout: .seconds(5)) { inFirst.isRaised })
        second.cancel()  // during D's delivery: retired
        let held = Flag()
        let release = Flag()
        holdLock(emitter.core.state, held: held, release: release)
        #expect(await eventually(timeout: .seconds(5)) { held.isRaised })
        startThread {  // waits for the lock, then registers
            let handler: @Sendable (Int) -> Void = { _ in
                inReplay.raise()
                let deadline = ContinuousClock.now + .seconds(120)  // released by the test; long under load
                while !holdReplay.isRaised, ContinuousClock.now < deadline { usleep(100) }
            }
            _ = replays ? (emitter.withCurrent() += handler) : (emitter += handler)
        }
        try? await Task.sleep(for: .milliseconds(30))
        holdFirst.raise()  // D finishes its delivery, gives the role up, then waits for the lock
        try? await Task.sleep(for: .milliseconds(30))
        release.raise()
        #expect(await eventually(timeout: .seconds(5)) { sendReturned.isRaised })
        let replayRan = await eventually(timeout: .seconds(2)) { inReplay.isRaised }
        try? await Task.sleep(for: .milliseconds(50))
        let releasedWhenDeliveryEnded = released.isRaised
        holdReplay.raise()
        #expect(await eventually(timeout: .seconds(5)) { released.isRaised })
        #expect(
            releasedWhenDeliveryEnded,
            "D's send returned but the handler cancelled during its delivery was still alive (replays \(replays), replay running: \(replayRan))"
        )
    }
}
