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

    /// `delay` hands several due values over at once; the handler cancels its own subscription
    /// at the first: it is not called for the rest of that batch, nor for anything after.
    ///
    /// Guarantees: "Once `cancel()` returns, no later send reaches the handler"; a handler cancelled
    /// during a delivery is not called for the rest of it.
    @Test(.timeLimit(.minutes(5)))
    func aDelayedHandlerThatCancelsItselfIsNotCalledAgain() async {
        let clock = TestClock()
        let emitter = ValueEmitter<Int>()
        let heard = LockedBox<[Int]>([])
        let calledAfterCancel = LockedBox<[Int]>([])
        let subscription = LockedBox<EmitterSubscription?>(nil)
        let cancelReturned = Flag()
        subscription.mutate {
            $0 =
                emitter.delay(interval: .seconds(1), clock: clock) += { value in
                    if cancelReturned.isRaised { calledAfterCancel.mutate { $0.append(value) } }
                    heard.mutate { $0.append(value) }
                    if value == 1 {
                        subscription.value?.cancel()
                        cancelReturned.raise()
                    }
                }
        }
        emitter.send(1)
        emitter.send(2)
        emitter.send(3)
        await clock.advance(by: .seconds(1)) { !heard.value.isEmpty }
        await clock.settle(by: .seconds(1))
        #expect(heard.value.first == 1)
        #expect(calledAfterCancel.value.isEmpty, "called with \(calledAfterCancel.value) after its own cancel() returned")
    }

    /// The same when the handler ends its scope at the first value of the batch.
    @Test(.timeLimit(.minutes(5)))
    func aDelayedHandlerThatEndsItsScopeIsNotCalledAgain() async {
        let clock = TestClock()
        let emitter = ValueEmitter<Int>()
        let scope = ObservationScope(label: "TimeOperatorTests")
        let calledAfterEnd = LockedBox<[Int]>([])
        let endReturned = Flag()
        scope.run {
            _ =
                emitter.delay(interval: .seconds(1), clock: clock) += { value in
                    if endReturned.isRaised { calledAfterEnd.mutate { $0.append(value) } }
                    if value == 1 {
                        scope.end()
                        endReturned.raise()
                    }
                }
        }
        emitter.send(1)
        emitter.send(2)
        await clock.advance(by: .seconds(1)) { endReturned.isRaised }
        await clock.settle(by: .seconds(1))
        #expect(endReturned.isRaised)
        #expect(calledAfterEnd.value.isEmpty, "called with \(calledAfterEnd.value) after its scope's end() returned")
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
