import Clocks
import ComposeEmitters
import ComposeTestSupport
import ComposeTesting
import Testing

@Suite struct ComposeClockTests {
    @Test func itKeepsTheTimeOfTheClockItWraps() async throws {
        let test = TestClock()
        let clock = ComposeClock(test)
        let start = clock.now
        await test.advance(by: .seconds(3))
        #expect(start.duration(to: clock.now) == .seconds(3))
        #expect(ComposeClock(clock).now == clock.now)  // wrapping twice wraps once
        #expect(clock.base is TestClock<Duration>)
    }

    @Test func sleepingWaitsForTheWrappedClock() async throws {
        let test = TestClock()
        let clock = ComposeClock(test)
        let woke = Recorder<Void>()
        let deadline = clock.now.advanced(by: .seconds(1))
        let sleeper = Task {
            try await clock.sleep(until: deadline, tolerance: nil)
            woke.record()
        }
        await test.advance(by: .milliseconds(999))
        #expect(woke.count == 0)
        await test.advance(by: .milliseconds(1)) { woke.count == 1 }
        try await sleeper.value
        #expect(woke.count == 1)
    }

    /// `debounce(interval:)` without a clock takes `ComposeClock.current` when it is made: a
    /// test that sets a test clock drives it.
    @Test func operatorsWithoutAClockUseTheCurrentOne() async throws {
        let test = TestClock()
        let typed = ValueEmitter<String>()
        let heard = Recorder<String>()
        ComposeClock.withCurrent(ComposeClock(test)) {
            typed.debounce(interval: .milliseconds(300)) += { heard.record($0) }
        }
        typed.send("a")
        typed.send("ab")
        await test.advance(by: .milliseconds(300)) { heard.count == 1 }
        #expect(heard.values == ["ab"])
        #expect(ComposeClock.current.base is ContinuousClock)  // outside: the continuous clock
    }
}
