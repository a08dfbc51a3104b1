import Clocks
import ComposeTestSupport
import ComposeTesting
import Foundation
import Testing

@testable import ComposeEmitters

/// `EventLog.Event.isConsequence`: what a session recording counts as an input. A send made
/// outside any delivery is not a consequence; one made by a handler, by a task a handler
/// started, or by a timer is.
@Suite struct EventLogConsequenceTests {
    /// Observes the log's sends whose source starts with `label`, as (source, isConsequence).
    private static func observe(_ label: String) -> (Recorder<(String, Bool)>, EmitterSubscription) {
        let events = Recorder<(String, Bool)>()
        let subscription = EventLog.observe { event in
            if event.kind == .send, event.source.hasPrefix(label) { events.record((event.source, event.isConsequence)) }
        }
        return (events, subscription)
    }

    @Test func aSendFromOutsideIsNotAConsequenceAndItsHandlersSendsAre() async {
        let label = "EventLogConsequenceTests.\(#function)"
        let (events, subscription) = Self.observe(label)
        defer { subscription.cancel() }
        let tap = SignalEmitter(label: label + ".tap")
        let derived = ValueEmitter<Int>(label: label + ".derived")
        let again = SignalEmitter(label: label + ".again")
        let tapped = tap += { derived.send(1) }
        let chained = derived += { _ in again.send() }
        defer { [tapped, chained].forEach { $0.cancel() } }

        tap.send()
        tap.send()

        #expect(await events.wait(forCount: 6))
        #expect(events.values.map(\.0) == [".tap", ".derived", ".again", ".tap", ".derived", ".again"].map { label + $0 })
        #expect(events.values.map(\.1) == [false, true, true, false, true, true])
    }

    @Test func aTaskAHandlerStartedSendsAsAConsequence() async {
        let label = "EventLogConsequenceTests.\(#function)"
        let (events, subscription) = Self.observe(label)
        defer { subscription.cancel() }
        let tap = SignalEmitter(label: label + ".tap")
        let loaded = SignalEmitter(label: label + ".loaded")
        let tapped = tap += { Task { loaded.send() } }
        defer { tapped.cancel() }

        tap.send()

        #expect(await events.wait(forCount: 2))
        #expect(events.values.map(\.1) == [false, true])
    }

    /// A value sent from another thread reaches a main-actor handler later, in a task on the main
    /// actor: that handler's send is a consequence.
    @Test func aMainActorHandlerHeardFromAnotherThreadSendsAsAConsequence() async {
        let label = "EventLogConsequenceTests.\(#function)"
        let (events, subscription) = Self.observe(label)
        defer { subscription.cancel() }
        let tap = ValueEmitter<Int>(label: label + ".tap")
        let echo = ValueEmitter<Int>(label: label + ".echo")
        let tapped = tap += { @MainActor value in echo.send(value) }
        defer { tapped.cancel() }

        await onThreads(1) { _ in tap.send(1) }

        #expect(await events.wait(forCount: 2))
        #expect(events.values.map(\.0) == [label + ".tap", label + ".echo"])
        #expect(events.values.map(\.1) == [false, true])
    }

    /// The same after a `flatMap` whose transform is on the main actor: its inner values are
    /// handed over there, and a nonisolated handler after it sends as a consequence.
    @Test func aHandlerAfterAMainActorFlatMapSendsAsAConsequence() async {
        let label = "EventLogConsequenceTests.\(#function)"
        let (events, subscription) = Self.observe(label + ".echo")
        defer { subscription.cancel() }
        let tap = ValueEmitter<Int>(label: label + ".tap")
        let inner = ValueEmitter<Int>(label: label + ".inner")
        let echo = ValueEmitter<Int>(label: label + ".echo")
        let tapped = tap.flatMap { @MainActor _ in inner } += { value in echo.send(value) }
        defer { tapped.cancel() }

        tap.send(1)
        // The inner emitter is subscribed on the main actor some time after: a thread sends
        // into it until the handler has heard a value.
        await onThreads(1) { _ in
            let deadline = ContinuousClock.now + testWaitLimit
            while events.count == 0, ContinuousClock.now < deadline {
                inner.send(2)
                usleep(1_000)
            }
        }

        #expect(events.values.first?.1 == true)
    }

    @Test func whatATimerOrADebounceSendsIsAConsequence() async {
        let label = "EventLogConsequenceTests.\(#function)"
        let (events, subscription) = Self.observe(label)
        defer { subscription.cancel() }
        let clock = TestClock()
        let typed = ValueEmitter<String>(label: label + ".typed")
        let searched = ValueEmitter<String>(label: label + ".searched")
        let ticked = SignalEmitter(label: label + ".ticked")
        let debounced = typed.debounce(interval: .milliseconds(300), clock: clock) += { searched.send($0) }
        let timer = Emitters.Timer(interval: .seconds(1), clock: clock) += { _ in ticked.send() }
        defer { [debounced, timer].forEach { $0.cancel() } }

        typed.send("a")
        // `until:` wakes the timer's task if it reached its sleep only after the clock moved.
        await clock.advance(by: .seconds(1)) { events.count >= 3 }
        #expect(await events.wait(forCount: 3))
        #expect(
            Set(events.values.map { "\($0.0.dropFirst(label.count)) \($0.1)" }) == [
                ".typed false", ".searched true", ".ticked true",
            ])
    }

    @Test func aRedactedEmitterLogsNoValue() async {
        let label = "EventLogConsequenceTests.\(#function)"
        let payloads = Recorder<String>()
        let subscription = EventLog.observe { event in
            if event.source == label { payloads.record("\(event.payload)") }
        }
        defer { subscription.cancel() }
        let password = ValueEmitter<String>(label: label, redacted: true)
        #expect(password.isRedacted)

        password.send("hunter2")

        #expect(await payloads.wait(forCount: 1))
        #expect(payloads.values == ["<redacted>"])
        #expect(password.lastValue == "hunter2")  // redacted in the log only
    }

    /// Off, `asConsequence` only runs its body; on, code inside it records consequences.
    @Test func asConsequenceMarksWhatItRecords() async {
        let label = "EventLogConsequenceTests.\(#function)"
        #expect(EventLog.asConsequence { 42 } == 42)
        let (events, subscription) = Self.observe(label)
        defer { subscription.cancel() }
        let emitter = SignalEmitter(label: label)
        emitter.send()
        EventLog.asConsequence { emitter.send() }
        #expect(await events.wait(forCount: 2))
        #expect(events.values.map(\.1) == [false, true])
    }
}
