import ComposeEmitters
import ComposeTestSupport
import Foundation
import Synchronization
import Testing

/// A send that finds nobody delivering takes the delivery role without the emitter's lock, and
/// delivers to the handlers the last locked delivery published (see `EmitterCore`, "Sending
/// without the lock"). These tests race it against what changes the handlers and what reads the
/// current value: registering, `~+=`, ``ValueEmitter/withCurrent()``, ``ValueEmitter/lastValue``.
///
/// One thread sends 0, 1, 2, ... while another registers and cancels, so a handler's values say
/// exactly what it missed: every handler must hear a run with no gap, from no later than the
/// first send that started after its registration returned until its cancellation. Each test
/// runs with a value that fits a word (an `Int`, sent without the lock) and one that does not (a
/// `String`, sent under it), which must behave the same.
@Suite(.serialized) struct SendWithoutLockTests {
    /// At least this many sends, and more until `registrations` handlers came and went.
    static let sends = 50_000
    static let registrations = 40

    /// How a test sends numbers: as `Int`s, or spelled out in `String`s.
    enum Spelling: String, CaseIterable, Sendable {
        case word, string

        var type: any Numbered.Type {
            switch self {
            case .word: Int.self
            case .string: String.self
            }
        }
    }

    /// What one handler of ``race(_:_:register:)`` heard.
    struct Heard<Element: Sendable>: Sendable {
        /// Every send from this number on started after the registration returned.
        var owed: Int
        /// Every send before this number, but the last, returned before the cancellation
        /// started. A send that overlaps a cancellation may or may not reach the handler.
        var cancelledFrom: Int
        var values: [Element]
    }

    /// Sends 0, 1, 2, ... on one thread while another registers a handler with `register`, waits
    /// until it heard a value, cancels it, and starts again, until at least `sends` values were
    /// sent and `registrations` handlers came and went. Returns what each handler heard.
    static func race<Value: Numbered, Element: Sendable>(
        _ emitter: ValueEmitter<Value>,
        register: @escaping @Sendable (Recorder<Element>) -> EmitterSubscription
    ) async -> [Heard<Element>] {
        let started = Atomic<Int>(0)
        let done = Atomic<Bool>(false)
        let heard = Mutex<[Heard<Element>]>([])
        let registered = Atomic<Int>(0)
        await onThreads(2) { thread in
            if thread == 0 {
                var number = 0
                // Bounded: a sender faster than the handlers keeps the delivering thread
                // delivering (its `send`, or a registration's, returns once nothing waits), so a
                // registration that took the role may return only once this thread stops.
                while (number < sends || registered.load(ordering: .relaxed) < registrations) && number < sends * 20 {
                    started.store(number + 1, ordering: .sequentiallyConsistent)
                    emitter.send(Value(number))
                    number += 1
                }
                done.store(true, ordering: .releasing)
            } else {
                while !done.load(ordering: .acquiring) {
                    let recorder = Recorder<Element>()
                    let subscription = register(recorder)
                    let owed = started.load(ordering: .sequentiallyConsistent)
                    while recorder.values.isEmpty, !done.load(ordering: .acquiring) { sched_yield() }
                    let cancelledFrom = started.load(ordering: .sequentiallyConsistent)
                    subscription.cancel()
                    let values = recorder.values
                    heard.withLock { $0.append(Heard(owed: owed, cancelledFrom: cancelledFrom, values: values)) }
                    registered.add(1, ordering: .relaxed)
                }
            }
        }
        return heard.withLock { $0 }
    }

    /// Checks that `numbers` are what a handler registered before `owed` and cancelled at
    /// `cancelledFrom` must hear: increasing, with no gap before the cancellation, and from no
    /// later than the first send that started after the registration, if it finished before the
    /// cancellation.
    static func expectRun(_ numbers: [Int], owed: Int, cancelledFrom: Int, _ what: String) {
        guard let first = numbers.first else { return }
        let repeatOrBack = zip(numbers, numbers.dropFirst()).first { $1 <= $0 }
        #expect(repeatOrBack == nil, "\(what): out of order")
        let settled = numbers.filter { $0 < cancelledFrom - 1 }
        let gap = zip(settled, settled.dropFirst()).first { $1 != $0 + 1 }
        #expect(gap == nil, "\(what): a gap before the cancellation")
        if owed < cancelledFrom - 1 {
            #expect(first <= owed, "\(what): sends from \(owed) on started after the registration; heard first \(first)")
        }
    }

    @Test(arguments: Spelling.allCases)
    func aHandlerRegisteredDuringSendsHearsEveryValueSentAfterIt(spelling: Spelling) async {
        await handlersHearRuns(spelling.type)
    }

    private func handlersHearRuns<Value: Numbered>(_: Value.Type) async {
        let emitter = ValueEmitter<Value>()
        let heard = await Self.race(emitter) { (recorder: Recorder<Int>) in
            emitter += { recorder.record($0.number) }
        }
        for handler in heard {
            Self.expectRun(handler.values, owed: handler.owed, cancelledFrom: handler.cancelledFrom, "+=")
        }
    }

    @Test(arguments: Spelling.allCases)
    func changesRegisteredDuringSendsStartFromTheValueBeforeTheirFirst(spelling: Spelling) async {
        await changesAreConsecutive(spelling.type)
    }

    /// `~+=`'s first `previous` is the value current when it subscribed: with a value that
    /// might be written by a send holding no lock at that very moment, the registration leaves it
    /// to that send, which must hand over its own value, not the one before.
    private func changesAreConsecutive<Value: Numbered>(_: Value.Type) async {
        let emitter = ValueEmitter<Value>()
        let heard = await Self.race(emitter) { (recorder: Recorder<Pair>) in
            emitter ~+= { new, previous in recorder.record(Pair(new: new.number, previous: previous?.number)) }
        }
        for handler in heard {
            // A send that overlaps the cancellation may skip the handler, and the next one's
            // `previous` is then the last it heard.
            let wrong = handler.values.first {
                $0.new < handler.cancelledFrom - 1 && $0.previous != ($0.new == 0 ? nil : $0.new - 1)
            }
            #expect(wrong == nil, "~+=: \(wrong.map { "\($0.previous.map(String.init) ?? "nil") then \($0.new)" } ?? "")")
            Self.expectRun(handler.values.map(\.new), owed: handler.owed, cancelledFrom: handler.cancelledFrom, "~+=")
        }
    }

    /// A change as `~+=` reports it.
    struct Pair: Equatable, Sendable {
        var new: Int
        var previous: Int?
    }

    @Test(arguments: Spelling.allCases)
    func withCurrentDuringSendsStartsFromTheCurrentValueWithNoGap(spelling: Spelling) async {
        await currentThenRun(spelling.type)
    }

    /// The current value, then every value after it: a run, with no gap and no value twice.
    /// With the value read by a registration that leaves it to a send holding the role, a
    /// current value read too early shows as a gap.
    private func currentThenRun<Value: Numbered>(_: Value.Type) async {
        let emitter = ValueEmitter<Value>()
        let heard = await Self.race(emitter) { (recorder: Recorder<Int>) in
            emitter.withCurrent() += { recorder.record($0.number) }
        }
        for handler in heard {
            Self.expectRun(handler.values, owed: handler.owed, cancelledFrom: handler.cancelledFrom, "withCurrent")
        }
    }

    @Test(arguments: Spelling.allCases)
    func lastValueNeverGoesBackAndEndsWithTheLastSent(spelling: Spelling) async {
        await lastValueIsMonotonic(spelling.type)
    }

    /// Read from another thread while values are sent, the last value never goes back, and once
    /// the sends are over it is the last one; read by a handler, it is the value being delivered.
    private func lastValueIsMonotonic<Value: Numbered>(_: Value.Type) async {
        let emitter = ValueEmitter<Value>()
        let notCurrent = Atomic<Int>(0)
        emitter += { delivered in
            if emitter.lastValue?.number != delivered.number { notCurrent.add(1, ordering: .relaxed) }
        }
        let done = Atomic<Bool>(false)
        let backwards = Atomic<Int>(0)
        let reads = Atomic<Int>(0)
        let last = Atomic<Int>(0)
        await onThreads(2) { thread in
            if thread == 0 {
                var number = 0
                while number < Self.sends || reads.load(ordering: .relaxed) < 1_000 {
                    emitter.send(Value(number))
                    number += 1
                }
                last.store(number - 1, ordering: .relaxed)
                done.store(true, ordering: .releasing)
            } else {
                var latest = -1
                while !done.load(ordering: .acquiring) {
                    let read = emitter.lastValue?.number ?? -1
                    if read < latest { backwards.add(1, ordering: .relaxed) }
                    latest = max(latest, read)
                    reads.add(1, ordering: .relaxed)
                }
            }
        }
        #expect(backwards.load(ordering: .relaxed) == 0)
        #expect(notCurrent.load(ordering: .relaxed) == 0)
        #expect(emitter.lastValue?.number == last.load(ordering: .relaxed))
    }

    /// Handlers registered and cancelled from one thread while three send without the lock: a
    /// handler hears each sender's values in its order and never twice, the first handler hears
    /// everything, and the emitter ends with no handler but the first.
    @Test func registrationsAndCancellationsRaceSendsFromManyThreads() async {
        let emitter = ValueEmitter<Int>()
        let everything = Recorder<Int>()
        emitter += everything.record
        let outOfOrder = Atomic<Int>(0)
        await onThreads(4) { thread in
            if thread < 3 {
                for number in 0..<10_000 { emitter.send(thread * 10_000 + number) }
            } else {
                for _ in 0..<200 {
                    let heard = Recorder<Int>()
                    let subscription = emitter += heard.record
                    sched_yield()
                    subscription.cancel()
                    let values = heard.values
                    for sender in 0..<3 {
                        let own = values.filter { $0 / 10_000 == sender }
                        if own != own.sorted() || Set(own).count != own.count { outOfOrder.add(1, ordering: .relaxed) }
                    }
                }
            }
        }
        #expect(outOfOrder.load(ordering: .relaxed) == 0)
        let values = everything.values
        #expect(values.count == 30_000)
        for sender in 0..<3 {
            #expect(values.filter { $0 / 10_000 == sender } == Array(sender * 10_000..<(sender + 1) * 10_000))
        }
        #expect(emitter.subscriberCount == 1)
    }
}

/// A value the tests send that stands for a number.
protocol Numbered: Sendable {
    init(_ number: Int)
    var number: Int { get }
}

extension Int: Numbered {
    var number: Int { self }
}

extension String: Numbered {
    var number: Int { Int(self)! }
}
