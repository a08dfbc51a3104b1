import ComposeEmitters
import ComposeStore
import ComposeTestSupport
import Synchronization
import Testing

// The subscriptions `DoubleCancelTests` cancels twice: one of every kind of emitter and
// operator, with nonisolated handlers and with handlers on actors.

/// One round of a race between sends and cancels: what the handler heard, what the cancels read
/// once they returned.
final class CancelRound: Sendable {
    /// The number of the last send started (a sender takes its number before sending).
    let counter = Atomic<Int>(0)
    /// The smallest number any cancel read once it returned: a value above it was sent by a
    /// send that started after that cancel returned.
    let minRead = Atomic<Int>(Int.max)
    let maxHeard = Atomic<Int>(0)
    /// Raised once any cancel of the round has returned.
    let closed = Flag()
    /// Calls of the handler that began once `closed` was raised (a handler on an actor, or behind
    /// a relay, must have none).
    let entriesAfterClose = Atomic<Int>(0)
    let cancelsDone = Atomic<Int>(0)
    let subscription = LockedBox<EmitterSubscription?>(nil)
    let scope = LockedBox<ObservationScope?>(nil)
    /// The value at which the handler cancels its own subscription, if any.
    let cancelInHandlerAt = Atomic<Int>(-1)

    /// What the handler does with `value`.
    func heard(_ value: Int) {
        if closed.isRaised { entriesAfterClose.add(1, ordering: .relaxed) }
        var current = maxHeard.load(ordering: .relaxed)
        while value > current {
            let (exchanged, original) = maxHeard.compareExchange(expected: current, desired: value, ordering: .relaxed)
            if exchanged { break }
            current = original
        }
        if value == cancelInHandlerAt.load(ordering: .relaxed) {
            subscription.value?.cancel()
            afterCancelReturned()
        }
    }

    /// What every canceller does once its cancel (or end) has returned.
    func afterCancelReturned() {
        let read = counter.load(ordering: .sequentiallyConsistent)
        var current = minRead.load(ordering: .relaxed)
        while read < current {
            let (exchanged, original) = minRead.compareExchange(expected: current, desired: read, ordering: .relaxed)
            if exchanged { break }
            current = original
        }
        closed.raise()
        cancelsDone.add(1, ordering: .sequentiallyConsistent)
    }

    /// Whether the handler heard a value that a send started after a cancel returned carried.
    var heardALateValue: Bool {
        maxHeard.load(ordering: .relaxed) > minRead.load(ordering: .relaxed)
    }
}

/// How one kind of subscription is made and sent to.
struct SubscriptionKind: Sendable, CustomTestStringConvertible {
    let name: String
    /// Whether no call at all may begin once a cancel returned (a handler on an actor, or behind
    /// a relay), rather than only none for a send that starts afterwards.
    let strict: Bool
    /// Whether its handler may be called after the senders returned (on an actor, after a timer),
    /// so that a round's late calls can only be seen after a while.
    let callsLater: Bool
    /// Makes the source and the round's subscription; returns how to send value `n`.
    let make: @Sendable (CancelRound) async -> @Sendable (Int) -> Void

    init(
        _ name: String, strict: Bool = false, callsLater: Bool = false,
        make: @escaping @Sendable (CancelRound) async -> @Sendable (Int) -> Void
    ) {
        self.name = name
        self.strict = strict
        self.callsLater = callsLater
        self.make = make
    }

    var testDescription: String { name }

    static let nonisolated: [SubscriptionKind] = [
        SubscriptionKind("ValueEmitter<Int>") { round in
            let emitter = ValueEmitter<Int>()
            round.subscription.mutate { $0 = emitter += { round.heard($0) } }
            return { emitter.send($0) }
        },
        SubscriptionKind("ValueEmitter<String>") { round in
            let emitter = ValueEmitter<String>()
            round.subscription.mutate { $0 = emitter += { round.heard(Int($0)!) } }
            return { emitter.send(String($0)) }
        },
        SubscriptionKind("withCurrent") { round in
            let emitter = ValueEmitter<Int>()
            emitter.send(0)
            round.subscription.mutate { $0 = emitter.withCurrent() += { round.heard($0) } }
            return { emitter.send($0) }
        },
        SubscriptionKind("changes ~+=") { round in
            let emitter = ValueEmitter<Int>()
            round.subscription.mutate { $0 = emitter ~+= { new, _ in round.heard(new) } }
            return { emitter.send($0) }
        },
        SubscriptionKind("map.filter.undup") { round in
            let emitter = ValueEmitter<Int>()
            round.subscription.mutate {
                $0 = emitter.map { $0 * 2 }.filter { _ in true }.undup().map { $0 / 2 } += { round.heard($0) }
            }
            return { emitter.send($0) }
        },
        SubscriptionKind("AnyEmitter") { round in
            let emitter = ValueEmitter<Int>()
            round.subscription.mutate { $0 = AnyEmitter(emitter.map { $0 }) += { round.heard($0) } }
            return { emitter.send($0) }
        },
        SubscriptionKind("bundle") { round in
            let emitter = ValueEmitter<Int>()
            let inner = emitter += { round.heard($0) }
            round.subscription.mutate { $0 = EmitterSubscription([inner]) }
            return { emitter.send($0) }
        },
        SubscriptionKind("merge", strict: true) { round in
            let (a, b) = (ValueEmitter<Int>(), ValueEmitter<Int>())
            round.subscription.mutate { $0 = a.merge(with: b) += { round.heard($0) } }
            return { value in value.isMultiple(of: 2) ? a.send(value) : b.send(value) }
        },
        SubscriptionKind("combineLatest", strict: true) { round in
            let (a, b) = (ValueEmitter<Int>(), ValueEmitter<Int>())
            b.send(0)
            round.subscription.mutate { $0 = a.combineLatest(b) += { round.heard($0.0) } }
            return { a.send($0) }
        },
        SubscriptionKind("zip", strict: true) { round in
            let (a, b) = (ValueEmitter<Int>(), ValueEmitter<Int>())
            round.subscription.mutate { $0 = a.zip(b) += { round.heard($0.1) } }
            return { value in
                a.send(value)
                b.send(value)
            }
        },
        SubscriptionKind("flatMap", strict: true) { round in
            let (outer, inner) = (ValueEmitter<Int>(), ValueEmitter<Int>())
            round.subscription.mutate { $0 = outer.flatMap { _ in inner } += { round.heard($0) } }
            outer.send(0)
            return { inner.send($0) }
        },
        SubscriptionKind("dropUntil", strict: true) { round in
            let (a, trigger) = (ValueEmitter<Int>(), SignalEmitter())
            round.subscription.mutate { $0 = a.dropUntil(emitter: trigger) += { round.heard($0) } }
            trigger.send()
            return { a.send($0) }
        },
        SubscriptionKind("delay(0)", strict: true, callsLater: true) { round in
            let a = ValueEmitter<Int>()
            round.subscription.mutate { $0 = a.delay(interval: .zero) += { round.heard($0) } }
            return { a.send($0) }
        },
        SubscriptionKind("debounce(0)", strict: true, callsLater: true) { round in
            let a = ValueEmitter<Int>()
            round.subscription.mutate { $0 = a.debounce(interval: .zero) += { round.heard($0) } }
            return { a.send($0) }
        },
        SubscriptionKind("throttle(1ns)", strict: true, callsLater: true) { round in
            let a = ValueEmitter<Int>()
            round.subscription.mutate { $0 = a.throttle(interval: .nanoseconds(1)) += { round.heard($0) } }
            return { a.send($0) }
        },
        SubscriptionKind("store.observe") { round in
            let store = Store<RaceState>()
            round.subscription.mutate { $0 = store.observe(\.x) { round.heard($0) } }
            return { store.x = $0 }
        },
        SubscriptionKind("store.observe two key paths") { round in
            let store = Store<RaceState>()
            round.subscription.mutate { $0 = store.observe(\.x, \.text) { x, _ in round.heard(x) } }
            return { store.x = $0 }
        },
        SubscriptionKind("store.didChange") { round in
            let store = Store<RaceState>()
            round.subscription.mutate { $0 = store.didChange += { round.heard($0.new.x) } }
            return { store.x = $0 }
        },
        SubscriptionKind("store.willChange") { round in
            let store = Store<RaceState>()
            round.subscription.mutate { $0 = store.willChange += { round.heard($0.x) } }
            return { value in store.mutate { $0.x = value } }
        },
    ]

    static let onActors: [SubscriptionKind] = [
        SubscriptionKind("actor: ValueEmitter<Int>", strict: true, callsLater: true) { round in
            let emitter = ValueEmitter<Int>()
            let subscription = await RoundListener(round).listen(to: emitter)
            round.subscription.mutate { $0 = subscription }
            return { emitter.send($0) }
        },
        SubscriptionKind("actor: merge", strict: true, callsLater: true) { round in
            let (a, b) = (ValueEmitter<Int>(), ValueEmitter<Int>())
            let subscription = await RoundListener(round).listen(to: a.merge(with: b))
            round.subscription.mutate { $0 = subscription }
            return { value in value.isMultiple(of: 2) ? a.send(value) : b.send(value) }
        },
        SubscriptionKind("actor: zip", strict: true, callsLater: true) { round in
            let (a, b) = (ValueEmitter<Int>(), ValueEmitter<Int>())
            let subscription = await RoundListener(round).listen(to: a.zip(b).map { $0.1 })
            round.subscription.mutate { $0 = subscription }
            return { value in
                a.send(value)
                b.send(value)
            }
        },
        SubscriptionKind("actor: store.observe", strict: true, callsLater: true) { round in
            let store = Store<RaceState>()
            let subscription = await RoundListener(round).observe(store)
            round.subscription.mutate { $0 = subscription }
            return { store.x = $0 }
        },
        SubscriptionKind("main actor: ValueEmitter<Int>", strict: true, callsLater: true) { round in
            let emitter = ValueEmitter<Int>()
            let subscription = await MainActor.run { emitter += { @MainActor value in round.heard(value) } }
            round.subscription.mutate { $0 = subscription }
            return { emitter.send($0) }
        },
    ]
}

/// The state of the stores the rounds observe.
struct RaceState: AnyState {
    var x = 0
    var text = ""
}

/// An actor on a dispatch queue of its own whose handlers tell a round what they hear.
actor RoundListener {
    private nonisolated let executor = QueueExecutor()
    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
    private nonisolated let round: CancelRound

    init(_ round: CancelRound) {
        self.round = round
    }

    func listen<Source: Emitter>(to emitter: Source) -> EmitterSubscription where Source.Value == Int {
        emitter += { value in self.round.heard(value) }
    }

    func observe(_ store: Store<RaceState>) -> EmitterSubscription {
        store.observe(\.x) { value in self.round.heard(value) }
    }
}
