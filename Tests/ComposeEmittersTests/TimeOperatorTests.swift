import Clocks
import ComposeTestSupport
import Testing

@testable import ComposeEmitters

/// `debounce`, `throttle`, `delay` and the timer, driven by a test clock: no test sleeps.
@Suite struct TimeOperatorTests {
    @Test func debounceSendsTheLatestValueAfterAQuietInterval() async {
        let clock = TestClock()
        let emitter = ValueEmitter<Int>()
        let output = Recorder<Int>()
        emitter.debounce(interval: .seconds(1), clock: clock) += output.record

        emitter.send(1)
        await clock.settle(by: .milliseconds(500))
        emitter.send(2)  // moves the deadline to 1.5 s
        await clock.settle(by: .milliseconds(900))
        #expect(output.values.isEmpty)
        await clock.advance(by: .milliseconds(100)) { output.count == 1 }
        #expect(output.values == [2])

        emitter.send(3)
        await clock.advance(by: .seconds(1)) { output.count == 2 }
        #expect(output.values == [2, 3])
    }

    @Test func cancellingADebounceDropsThePendingValueAndStopsTheTimer() async {
        let clock = TestClock()
        let emitter = ValueEmitter<Int>()
        let output = Recorder<Int>()
        let subscription = emitter.debounce(interval: .seconds(1), clock: clock) += output.record
        emitter.send(1)
        subscription.cancel()
        await clock.settle(by: .seconds(2))
        #expect(output.values.isEmpty)
        #expect(emitter.subscriberCount == 0)
    }

    @Test func throttleSendsTheFirstAtOnceThenTheLatestPerInterval() async {
        let clock = TestClock()
        let emitter = ValueEmitter<Int>()
        let output = Recorder<Int>()
        emitter.throttle(interval: .seconds(1), clock: clock) += output.record

        emitter.send(1)
        #expect(output.values == [1])
        emitter.send(2)
        emitter.send(3)
        await clock.advance(by: .seconds(1)) { output.count == 2 }
        #expect(output.values == [1, 3])
        // Nothing held for the next window: the throttle goes idle.
        await clock.settle(by: .seconds(1))
        emitter.send(4)
        #expect(output.values == [1, 3, 4])
    }

    @Test func throttleCanKeepTheFirstValueOfAnInterval() async {
        let clock = TestClock()
        let emitter = ValueEmitter<Int>()
        let output = Recorder<Int>()
        emitter.throttle(interval: .seconds(1), latest: false, clock: clock) += output.record
        emitter.send(1)
        emitter.send(2)
        emitter.send(3)
        await clock.advance(by: .seconds(1)) { output.count == 2 }
        #expect(output.values == [1, 2])
    }

    @Test func delayKeepsOrderAndSpacing() async {
        let clock = TestClock()
        let emitter = ValueEmitter<Int>()
        let output = Recorder<Int>()
        emitter.delay(interval: .seconds(2), clock: clock) += output.record

        emitter.send(1)
        await clock.settle(by: .seconds(1))
        emitter.send(2)
        await clock.advance(by: .seconds(1)) { output.count == 1 }
        #expect(output.values == [1])
        await clock.advance(by: .seconds(1)) { output.count == 2 }
        #expect(output.values == [1, 2])
    }

    @Test func timerTicksOnScheduleUntilCancelled() async {
        let clock = TestClock()
        let output = Recorder<TestClock<Duration>.Instant>()
        let start = clock.now
        let subscription = Emitters.Timer(interval: .seconds(1), clock: clock) += output.record

        await clock.advance(by: .seconds(1)) { output.count == 1 }
        await clock.advance(by: .seconds(1)) { output.count == 2 }
        await clock.advance(by: .seconds(1)) { output.count == 3 }
        #expect(output.values == [1, 2, 3].map { start.advanced(by: .seconds($0)) })

        subscription.cancel()
        await clock.settle(by: .seconds(5))
        #expect(output.count == 3)
    }

    @Test(arguments: [
        // (now after the tick at 1 s, the next tick due)
        (1.0, 2.0), (1.5, 2.0), (1.999, 2.0),
        (2.0, 2.0), (2.001, 3.0), (4.5, 5.0), (5.0, 5.0), (100.25, 101.0),
    ])
    func timerSkipsTicksItMissed(now: Double, expected: Double) {
        let start = ContinuousClock.now
        let next = Emitters.Timer<ContinuousClock>.tick(
            after: start.advanced(by: .seconds(1)),
            interval: .seconds(1),
            now: start.advanced(by: .seconds(now))
        )
        #expect(next == start.advanced(by: .seconds(expected)))
    }
}
