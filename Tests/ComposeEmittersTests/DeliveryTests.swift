import ComposeTestSupport
import Dispatch
import Synchronization
import Testing

@testable import ComposeEmitters

/// The delivery contract of every emitter: order, reentrancy, cancellation and threads.
@Suite struct DeliveryTests {
    @Test func deliversInSubscriptionOrder() {
        let output = Recorder<Int>()
        let emitter = ValueEmitter<Int>()
        for index in 0..<50 {
            emitter += { _ in output.record(index) }
        }
        emitter.send(0)
        #expect(output.values == Array(0..<50))
    }

    @Test func deliversOnTheSendersThread() async {
        let emitter = SignalEmitter()
        let threads = Recorder<Bool>()
        emitter += { threads.record(SendingThread.isCurrent) }
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    SendingThread.mark { emitter.send() }
                }
            }
        }
        // Each send happened with no other delivery in progress or was queued behind one; either
        // way it ran on a thread that was inside `send`.
        #expect(threads.values.count == 4)
        #expect(threads.values.allSatisfy { $0 })
    }

    @Test func aValueSentFromAHandlerIsDeliveredAfterTheCurrentOne() {
        let emitter = ValueEmitter<Int>()
        let first = Recorder<Int>()
        let second = Recorder<Int>()
        emitter += { value in
            first.record(value)
            if value == 1 { emitter.send(2) }
        }
        emitter += { value in second.record(value) }

        emitter.send(1)

        // Every handler sees 1 before 2: the reentrant send waited for the delivery of 1.
        #expect(first.values == [1, 2])
        #expect(second.values == [1, 2])
    }

    @Test func aReentrantSendHasBeenDeliveredWhenTheOuterSendReturns() {
        let emitter = ValueEmitter<Int>()
        let output = Recorder<Int>()
        emitter += { value in
            if value < 5 { emitter.send(value + 1) }
            output.record(value)
        }
        emitter.send(0)
        #expect(output.values == [0, 1, 2, 3, 4, 5])
    }

    @Test func aHandlerAddedDuringADeliveryHearsTheNextValue() {
        let emitter = ValueEmitter<Int>()
        let late = Recorder<Int>()
        let added = Atomic<Bool>(false)
        emitter += { _ in
            if !added.exchange(true, ordering: .relaxed) {
                emitter += { value in late.record(value) }
            }
        }
        emitter.send(1)
        emitter.send(2)
        #expect(late.values == [2])
    }

    @Test func aHandlerThatCancelsItselfIsNotCalledAgain() {
        let emitter = SignalEmitter()
        let calls = Recorder<Void>()
        let slot = SubscriptionSlot()
        slot.replace(
            with: emitter.register { _ in
                calls.record()
                slot.cancel()
                emitter.send()  // queued: must not reach the cancelled handler
            })
        emitter.send()
        emitter.send()
        #expect(calls.count == 1)
    }

    @Test func aHandlerCancelledByAnEarlierOneIsSkippedForTheRestOfTheDelivery() {
        let emitter = SignalEmitter()
        let later = Recorder<Void>()
        let victim = SubscriptionSlot()
        emitter += { victim.cancel() }
        victim.replace(with: emitter += { later.record() })
        emitter += { later.record() }  // a third handler, still called

        emitter.send()

        #expect(later.count == 1)
        #expect(emitter.subscriberCount == 2)
    }

    @Test func noSendThatStartsAfterCancelReturnsReachesTheHandler() async {
        let emitter = ValueEmitter<Int>()
        let afterCancel = Atomic<Bool>(false)
        let violations = Atomic<Int>(0)
        let subscription =
            emitter += { _ in
                // A send that started after `cancel()` returned must never get here.
                if afterCancel.load(ordering: .acquiring) { violations.add(1, ordering: .relaxed) }
            }
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for value in 0..<20_000 { emitter.send(value) }
            }
            group.addTask {
                subscription.cancel()
            }
        }
        afterCancel.store(true, ordering: .releasing)
        for value in 0..<1_000 { emitter.send(value) }
        #expect(violations.load(ordering: .relaxed) == 0)
    }

    @Test func handlersNeverOverlapEvenWhenSendersRace() async {
        let emitter = ValueEmitter<Int>()
        let inside = Atomic<Int>(0)
        let overlaps = Atomic<Int>(0)
        let received = Atomic<Int>(0)
        emitter += { _ in
            if inside.add(1, ordering: .acquiringAndReleasing).newValue != 1 {
                overlaps.add(1, ordering: .relaxed)
            }
            received.add(1, ordering: .relaxed)
            inside.subtract(1, ordering: .acquiringAndReleasing)
        }
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<4 {
                group.addTask {
                    for value in 0..<5_000 { emitter.send(task * 5_000 + value) }
                }
            }
        }
        #expect(overlaps.load(ordering: .relaxed) == 0)
        #expect(received.load(ordering: .relaxed) == 20_000)
    }

    @Test func eachSendersValuesArriveInTheOrderItSentThem() async {
        let emitter = ValueEmitter<(sender: Int, value: Int)>()
        let output = Recorder<(sender: Int, value: Int)>()
        emitter += output.record
        await withTaskGroup(of: Void.self) { group in
            for sender in 0..<4 {
                group.addTask {
                    for value in 0..<2_000 { emitter.send((sender, value)) }
                }
            }
        }
        let received = output.values
        #expect(received.count == 8_000)
        for sender in 0..<4 {
            #expect(received.filter { $0.sender == sender }.map(\.value) == Array(0..<2_000))
        }
    }

    @Test func handlersRunWithoutALockHeld() {
        // The core's mutex checks for relocking in debug builds, so a handler that touches the
        // same emitter in every way would trap if it ran under the lock.
        let emitter = ValueEmitter<Int>()
        let output = Recorder<Int>()
        let extra = SubscriptionSlot()
        emitter += { value in
            _ = emitter.lastValue
            _ = emitter.subscriberCount
            switch value {
            case 0:
                extra.replace(with: emitter += { output.record($0) })
                emitter.send(1)
            case 1:
                emitter.send(2)
            default:
                extra.cancel()  // before `extra`'s turn: it does not hear 2
            }
        }
        emitter.send(0)
        #expect(output.values == [1])
        #expect(emitter.subscriberCount == 1)
    }

    @Test func releasingAHandlerCanRunUserCodeThatUsesTheEmitter() {
        // Cancelling releases the closure, whose captures may deinit and send on the emitter:
        // that happens after the lock is dropped.
        final class SendsOnDeinit: Sendable {
            let emitter: SignalEmitter
            init(_ emitter: SignalEmitter) { self.emitter = emitter }
            deinit { emitter.send() }
        }
        let emitter = SignalEmitter()
        let heard = Recorder<Void>()
        emitter += { heard.record() }
        var subscription: EmitterSubscription?
        do {
            let capture = SendsOnDeinit(emitter)
            subscription = emitter += { _ = capture }
        }
        subscription?.cancel()
        #expect(heard.count == 1)
    }

    /// A value the emitter remembers (`lastValue`) is released when a newer one replaces it;
    /// its deinit is user code and may read the same emitter. Before the fix it ran inside the
    /// emitter's lock: a relock, which crashed debug builds and deadlocked release builds.
    @Test(.timeLimit(.minutes(5)))
    func aReplacedValueIsReleasedOutsideTheLock() async {
        final class ReadsOnDeinit: Sendable {
            let emitter: LockedBox<ValueEmitter<ReadsOnDeinit>?>
            let seen: Recorder<Bool>
            init(_ emitter: LockedBox<ValueEmitter<ReadsOnDeinit>?>, _ seen: Recorder<Bool>) {
                self.emitter = emitter
                self.seen = seen
            }
            deinit { seen.record(emitter.value?.lastValue != nil) }
        }
        let box = LockedBox<ValueEmitter<ReadsOnDeinit>?>(nil)
        let seen = Recorder<Bool>()
        let emitter = ValueEmitter<ReadsOnDeinit>()
        box.mutate { $0 = emitter }
        emitter += { _ in }
        emitter.send(ReadsOnDeinit(box, seen))
        emitter.send(ReadsOnDeinit(box, seen))  // replaces the first: its deinit reads lastValue
        // Replaced while a delivery is in progress: the queued path releases outside the lock too.
        let reentrant = emitter.register { value in
            if seen.count == 1 { emitter.send(ReadsOnDeinit(box, seen)) }
        }
        emitter.send(ReadsOnDeinit(box, seen))
        reentrant.cancel()
        // While another test observes the event log, a logged send's value may wait in the
        // log's queue, and be released when the log hands it over.
        #expect(await eventually { seen.values.count >= 2 })
        #expect(seen.values.allSatisfy { $0 })
        box.mutate { $0 = nil }
    }

    @Test func aHandlerCancelledDuringADeliveryIsReleasedWhenTheDeliveryEnds() {
        // The delivery reads its snapshot of the handlers without the lock, so cancelling during
        // it keeps the old array alive until the delivery is over (see EmitterCore,
        // "Publication"). It must not outlive the delivery: a handler's captures may hold what
        // holds the emitter (a component that pops itself), and nothing may be sent again.
        final class Capture: Sendable {}
        let emitter = SignalEmitter()
        weak var weakCapture: Capture?
        do {
            let capture = Capture()
            weakCapture = capture
            let slot = SubscriptionSlot()
            slot.replace(
                with: emitter.register { _ in
                    _ = capture
                    slot.cancel()
                })
        }
        #expect(weakCapture != nil)
        emitter.send()
        #expect(weakCapture == nil, "the cancelled handler outlived the delivery")
        #expect(emitter.subscriberCount == 0)
    }

    @Test func aDeliveryIsUndisturbedByHandlersThatReshapeTheRegistry() {
        // A delivery reads the registry's buffer in place, without a reference to it (see
        // EmitterCore, "Publication"). Handlers that subscribe, cancel and compact the registry
        // (more than 16 tombstones, outnumbering the live entries) while it runs must neither
        // write nor free what it reads: every handler of the delivery is called once, in order.
        let emitter = ValueEmitter<Int>()
        let heard = Recorder<Int>()
        let extras = Mutex<[EmitterSubscription]>([])
        let reshaped = Atomic<Bool>(false)
        var original: [EmitterSubscription] = []
        for index in 0..<50 {
            original.append(
                emitter += { value in
                    heard.record(index)
                    guard index == 10, value == 1, !reshaped.exchange(true, ordering: .relaxed) else { return }
                    let added = (0..<60).map { _ in emitter += { _ in } }
                    extras.withLock { $0 = added }
                    for subscription in added { subscription.cancel() }
                })
        }
        emitter.send(1)
        #expect(heard.values == Array(0..<50))
        emitter.send(2)
        #expect(heard.values == Array(0..<50) + Array(0..<50))
        #expect(emitter.subscriberCount == 50)
        withExtendedLifetime(original) {}
    }

    @Test func aHandlerThatDropsTheLastOtherReferenceToItsEmitterDoesNotEndTheDelivery() {
        // The delivery's snapshot is not a reference: the emitter must stay alive while it sends,
        // which the caller's reference guarantees.
        final class Owner: @unchecked Sendable {  // Touched by this test's thread only.
            var emitter: ValueEmitter<Int>? = ValueEmitter()
        }
        let owner = Owner()
        let heard = Recorder<Int>()
        weak var weakEmitter: ValueEmitter<Int>?
        weakEmitter = owner.emitter
        owner.emitter! += { _ in owner.emitter = nil }
        for index in 0..<20 { owner.emitter! += { _ in heard.record(index) } }
        owner.emitter?.send(7)
        #expect(heard.values == Array(0..<20))
        #expect(weakEmitter == nil)
    }

    @Test func lastValueIsTheValueMostRecentlySent() {
        let emitter = ValueEmitter<Int>()
        #expect(emitter.lastValue == nil)
        let seen = Recorder<Int?>()
        emitter += { value in
            if value == 1 {
                emitter.send(2)
                seen.record(emitter.lastValue)  // 2 is queued, but it was sent
            }
        }
        emitter.send(1)
        #expect(seen.values == [2])
        #expect(emitter.lastValue == 2)
    }

    @Test func withCurrentDuringADeliveryKeepsOrder() {
        let emitter = ValueEmitter<Int>()
        let late = Recorder<Int>()
        let subscribed = Atomic<Bool>(false)
        emitter += { value in
            guard value == 1, !subscribed.exchange(true, ordering: .relaxed) else { return }
            emitter.send(2)  // queued behind the current delivery
            emitter.withCurrent() += late.record
        }
        emitter.send(1)
        // The new handler hears the current value (1) before the queued one (2).
        #expect(late.values == [1, 2])
    }

    @Test func changeOperatorStartsFromTheCurrentValue() {
        let emitter = ValueEmitter<String>()
        emitter.send("a")
        let output = Recorder<String>()
        emitter ~+= { new, previous in output.record("\(previous ?? "-")\(new)") }
        emitter.send("b")
        emitter.send("c")
        #expect(output.values == ["ab", "bc"])
    }

    @Test func cancellingTwiceIsHarmless() {
        let emitter = SignalEmitter()
        let subscription = emitter += {}
        subscription.cancel()
        subscription.cancel()
        #expect(subscription.isCancelled)
        #expect(emitter.subscriberCount == 0)
    }

    @Test func manyCancellationsKeepTheRegistryCompactAndOrdered() {
        let emitter = ValueEmitter<Int>()
        let output = Recorder<Int>()
        var subscriptions: [EmitterSubscription] = []
        for index in 0..<1_000 {
            subscriptions.append(emitter += { _ in output.record(index) })
        }
        for (index, subscription) in subscriptions.enumerated() where index % 3 != 0 {
            subscription.cancel()
        }
        emitter.send(0)
        #expect(output.values == Array(stride(from: 0, to: 1_000, by: 3)))
        #expect(emitter.subscriberCount == 334)
        // Compaction renumbered the survivors: cancelling them still works.
        for subscription in subscriptions { subscription.cancel() }
        #expect(emitter.subscriberCount == 0)
        emitter.send(1)
        #expect(output.count == 334)
    }
}

/// Marks the threads that are inside a `send`, to check where handlers run.
private enum SendingThread {
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    static func mark(_ body: () -> Void) {
        pthread_setspecific(key, UnsafeRawPointer(bitPattern: 1))
        body()
        pthread_setspecific(key, nil)
    }

    static var isCurrent: Bool {
        pthread_getspecific(key) != nil
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
