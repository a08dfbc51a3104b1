import Testing

@testable import ComposePersistence

/// The bookkeeping a restore waits on, driven by hand: which saves a restore waits for, and when
/// it does not wait.
@Suite struct PendingSavesStateMachineTests {
    typealias Machine = PendingSavesStateMachine

    @Test func aRestoreWaitsForTheSavesOfItsIdentityPendingWhenItBegins() {
        var machine = Machine()
        let first = machine.saveDecided(for: "a")
        let other = machine.saveDecided(for: "b")
        let second = machine.saveDecided(for: "a")
        #expect(machine.restoreBegan(of: "a", on: 1) == .wait(for: [first, second]))
        #expect(machine.waiting == ["a": 1])
        let later = machine.saveDecided(for: "a")  // decided after the restore began
        #expect(machine.saveDone(other) == .wakeRestores)
        #expect(machine.saveDone(second) == .wakeRestores)
        #expect(!machine.isDone([first, second]))
        #expect(machine.saveDone(first) == .wakeRestores)
        #expect(machine.isDone([first, second]))  // the later save does not hold it back
        machine.restoreStoppedWaiting(for: "a")
        #expect(machine.waiting.isEmpty)
        #expect(machine.saveDone(later) == .none)
        #expect(machine.pending.isEmpty)
    }

    @Test func aRestoreWithNothingPendingReadsAtOnce() {
        var machine = Machine()
        _ = machine.saveDecided(for: "b")
        #expect(machine.restoreBegan(of: "a", on: 1) == .readNow)
        #expect(machine.waiting.isEmpty)
    }

    /// A restore made while a save's error is reported on its thread does not wait: the saves of
    /// its identity may be queued behind that report. Other threads still wait.
    @Test func aThreadReportingASavesErrorDoesNotWait() {
        var machine = Machine()
        let ticket = machine.saveDecided(for: "a")
        machine.reportingBegan(on: 7)
        machine.reportingBegan(on: 7)
        #expect(machine.restoreBegan(of: "a", on: 7) == .readNow)
        machine.reportingEnded(on: 7)
        #expect(machine.restoreBegan(of: "a", on: 7) == .readNow)  // still inside the outer report
        #expect(machine.restoreBegan(of: "a", on: 8) == .wait(for: [ticket]))
        machine.reportingEnded(on: 7)
        #expect(machine.restoreBegan(of: "a", on: 7) == .wait(for: [ticket]))
        #expect(machine.waiting == ["a": 2])
    }
}
