import Testing

@testable import ComposeEmitters

/// The operators' state machines, driven synchronously: each transition and its action.
@Suite struct OperatorStateMachineTests {
    @Test func zipPairsInOrderWhicheverSideRunsAhead() {
        var machine = ZipStateMachine<Int, String>()
        var pairs: [String] = []
        func record(_ action: ZipStateMachine<Int, String>.Action) {
            if case .emit(let first, let second) = action { pairs.append("\(first)\(second)") }
        }
        record(machine.receivedFirst(1))
        record(machine.receivedFirst(2))
        record(machine.receivedSecond("a"))
        record(machine.receivedSecond("b"))
        record(machine.receivedSecond("c"))
        record(machine.receivedFirst(3))
        #expect(pairs == ["1a", "2b", "3c"])
        if case .emit = machine.receivedFirst(4) { Issue.record("nothing waits on the second side") }
    }

    @Test func combineLatestWaitsForBothThenSendsOnEither() {
        var machine = CombineLatestStateMachine<Int, String>()
        var pairs: [String] = []
        func record(_ action: CombineLatestStateMachine<Int, String>.Action) {
            if case .emit(let first, let second) = action { pairs.append("\(first)\(second)") }
        }
        record(machine.receivedFirst(1))
        record(machine.receivedFirst(2))
        record(machine.receivedSecond("a"))
        record(machine.receivedFirst(3))
        record(machine.receivedSecond("b"))
        #expect(pairs == ["2a", "3a", "3b"])
    }

    @Test func dropUntilPassesValuesAfterTheFirstTriggerOnly() {
        var machine = DropUntilStateMachine()
        #expect(machine.receivedValue() == .drop)
        #expect(machine.triggered() == .cancelTrigger)
        #expect(machine.triggered() == .none)
        #expect(machine.receivedValue() == .emit)
    }

    @Test func flatMapFollowsTheNewestInnerEmitterOnly() {
        var machine = FlatMapStateMachine()
        #expect(machine.receivedInner(generation: 0) == .drop)
        #expect(machine.receivedOuter() == .follow(generation: 1))
        #expect(machine.receivedInner(generation: 1) == .emit)
        #expect(machine.receivedOuter() == .follow(generation: 2))
        #expect(machine.receivedInner(generation: 1) == .drop)  // on its way from the old one
        #expect(machine.receivedInner(generation: 2) == .emit)
    }

    @Test func oncePassesTheFirstValueOnly() {
        var machine = OnceStateMachine()
        #expect(machine.received() == .cancelAndEmit)
        #expect(machine.received() == .drop)
    }

    @Test func debounceMovesItsDeadlineAndSendsAfterAQuietInterval() {
        var machine = DebounceStateMachine<String, ContinuousClock.Instant>(interval: .seconds(1))
        let start = ContinuousClock.now
        guard case .schedule(let first) = machine.received("a", at: start) else { return #expect(Bool(false)) }
        guard case .none = machine.received("b", at: start + .milliseconds(500)) else { return #expect(Bool(false)) }
        // The alarm set for "a" finds the deadline moved: one more alarm.
        guard case .schedule(let second) = machine.alarmFired(for: first) else { return #expect(Bool(false)) }
        #expect(second == start + .milliseconds(1_500))
        guard case .none = machine.alarmFired(for: first) else { return #expect(Bool(false)) }  // a stale alarm
        guard case .emit(let value) = machine.alarmFired(for: second) else { return #expect(Bool(false)) }
        #expect(value == "b")
    }

    @Test func delaySendsEachValueWhenDueInOrder() {
        var machine = DelayStateMachine<Int, ContinuousClock.Instant>(interval: .seconds(1))
        let start = ContinuousClock.now
        #expect(machine.received(1, at: start).schedule == start + .seconds(1))
        #expect(machine.received(2, at: start + .milliseconds(100)).schedule == nil)
        let action = machine.alarmFired(for: start + .seconds(1), at: start + .seconds(1))
        #expect(action.emit == [1])
        #expect(action.schedule == start + .milliseconds(1_100))
        #expect(machine.alarmFired(for: start + .seconds(1), at: start + .seconds(2)).emit == [])  // stale
        #expect(machine.alarmFired(for: start + .milliseconds(1_100), at: start + .seconds(2)).emit == [2])
    }

    @Test(arguments: [true, false])
    func throttleSendsTheFirstAtOnceThenOnePerWindow(keepsLatest: Bool) {
        var machine = ThrottleStateMachine<Int, ContinuousClock.Instant>(interval: .seconds(1), keepsLatest: keepsLatest)
        let start = ContinuousClock.now
        guard case .emit(1, let end) = machine.received(1, at: start) else { return #expect(Bool(false)) }
        guard case .none = machine.received(2, at: start), case .none = machine.received(3, at: start) else {
            return #expect(Bool(false))
        }
        guard case .emit(let held, let next) = machine.alarmFired(for: end) else { return #expect(Bool(false)) }
        #expect(held == (keepsLatest ? 3 : 2))
        guard case .none = machine.alarmFired(for: next) else { return #expect(Bool(false)) }  // nothing held: idle
        guard case .emit(4, _) = machine.received(4, at: start + .seconds(5)) else { return #expect(Bool(false)) }
    }
}
