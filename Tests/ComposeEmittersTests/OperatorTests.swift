import ComposeTestSupport
import Synchronization
import Testing

@testable import ComposeEmitters

/// Operators beyond the README's examples, and the edges of those in it.
@Suite struct OperatorTests {
    @Test func compactMapDropsNil() {
        let input = ValueEmitter<String>()
        let output = Recorder<Int>()
        input.compactMap { Int($0) } += output.record
        for text in ["1", "x", "22", "", "3"] { input.send(text) }
        #expect(output.values == [1, 22, 3])
    }

    @Test func scanAccumulatesPerSubscription() {
        let taps = SignalEmitter()
        let first = Recorder<Int>()
        let second = Recorder<Int>()
        let counter = taps.scan(0) { count, _ in count + 1 }
        counter += first.record
        taps.send()
        counter += second.record
        taps.send()
        taps.send()
        #expect(first.values == [1, 2, 3])
        #expect(second.values == [1, 2])
    }

    @Test func operatorStateIsPerSubscription() {
        let emitter = ValueEmitter<Int>()
        let undupped = emitter.undup()
        let first = Recorder<Int>()
        let second = Recorder<Int>()
        undupped += first.record
        emitter.send(1)
        undupped += second.record
        emitter.send(1)
        #expect(first.values == [1])
        #expect(second.values == [1])
    }

    @Test func dropFirstZeroDropsNothing() {
        let emitter = ValueEmitter<Int>()
        let output = Recorder<Int>()
        emitter.dropFirst(0) += output.record
        emitter.send(1)
        emitter.dropFirst(3) += output.record
        for value in 2...6 { emitter.send(value) }
        // The second subscription drops 2, 3 and 4, then hears 5 and 6 after the first one.
        #expect(output.values == [1, 2, 3, 4, 5, 5, 6, 6])
    }

    @Test func combineLatestWaitsForBothThenSendsOnEither() {
        let email = ValueEmitter<String>()
        let password = ValueEmitter<String>()
        let output = Recorder<String>()
        email.combineLatest(password) += { email, password in output.record("\(email)/\(password)") }
        email.send("a@b")
        #expect(output.values.isEmpty)
        password.send("1")
        password.send("12")
        email.send("c@d")
        #expect(output.values == ["a@b/1", "a@b/12", "c@d/12"])
    }

    @Test func zipPairsInOrder() {
        let requests = ValueEmitter<Int>()
        let responses = ValueEmitter<String>()
        let output = Recorder<String>()
        requests.zip(responses) += { request, response in output.record("\(request)\(response)") }
        requests.send(1)
        requests.send(2)
        responses.send("a")
        responses.send("b")
        responses.send("c")
        requests.send(3)
        #expect(output.values == ["1a", "2b", "3c"])
    }

    @Test func mergeOfValueEmittersKeepsArrivalOrder() {
        let first = ValueEmitter<Int>()
        let second = ValueEmitter<Int>()
        let output = Recorder<Int>()
        first.merge(with: second) += output.record
        first.send(1)
        second.send(2)
        first.send(3)
        #expect(output.values == [1, 2, 3])
    }

    @Test func mergeNeverOverlapsWhenSourcesSendFromDifferentThreads() async {
        let first = SignalEmitter()
        let second = SignalEmitter()
        let inside = Atomic<Int>(0)
        let overlaps = Atomic<Int>(0)
        let received = Atomic<Int>(0)
        (first + second) += {
            if inside.add(1, ordering: .acquiringAndReleasing).newValue != 1 { overlaps.add(1, ordering: .relaxed) }
            received.add(1, ordering: .relaxed)
            inside.subtract(1, ordering: .acquiringAndReleasing)
        }
        await withTaskGroup(of: Void.self) { group in
            group.addTask { for _ in 0..<5_000 { first.send() } }
            group.addTask { for _ in 0..<5_000 { second.send() } }
        }
        #expect(overlaps.load(ordering: .relaxed) == 0)
        #expect(received.load(ordering: .relaxed) == 10_000)
    }

    @Test func cancellingAMergeReleasesBothSources() {
        let first = SignalEmitter()
        let second = SignalEmitter()
        let subscription = (first + second) += {}
        #expect(first.subscriberCount == 1 && second.subscriberCount == 1)
        subscription.cancel()
        #expect(first.subscriberCount == 0 && second.subscriberCount == 0)
    }

    @Test func flatMapDropsTheOldInnerSubscription() {
        let outer = ValueEmitter<Int>()
        let inners = (0..<3).map { _ in ValueEmitter<String>() }
        let output = Recorder<String>()
        let subscription = outer.flatMap { inners[$0] } += output.record

        outer.send(0)
        inners[0].send("a")
        outer.send(1)
        #expect(inners[0].subscriberCount == 0)
        #expect(inners[1].subscriberCount == 1)
        inners[0].send("stale")
        inners[1].send("b")
        outer.send(2)
        inners[2].send("c")

        #expect(output.values == ["a", "b", "c"])
        subscription.cancel()
        #expect(inners.allSatisfy { $0.subscriberCount == 0 })
        #expect(outer.subscriberCount == 0)
    }

    @Test func flatMapToAnEmitterWithACurrentValue() {
        let outer = SignalEmitter()
        let inner = ValueEmitter<Int>()
        inner.send(7)
        let output = Recorder<Int>()
        outer.flatMap { inner.withCurrent() } += output.record
        outer.send()
        inner.send(8)
        #expect(output.values == [7, 8])
    }

    @Test func dropUntilReleasesTheTriggerOnceItFired() {
        let emitter = SignalEmitter()
        let trigger = SignalEmitter()
        let subscription = emitter.dropUntil(emitter: trigger) += {}
        #expect(trigger.subscriberCount == 1)
        trigger.send()
        #expect(trigger.subscriberCount == 0)
        subscription.cancel()
        #expect(emitter.subscriberCount == 0)
    }

    @Test func onceCancelledBeforeItFiresNeverFires() {
        let emitter = ValueEmitter<Int>()
        let output = Recorder<Int>()
        let subscription = emitter !+= output.record
        subscription.cancel()
        emitter.send(1)
        #expect(output.values.isEmpty)
    }

    @Test func onceOverWithCurrentFiresDuringRegistrationAndCleansUp() {
        let emitter = ValueEmitter<Int>()
        emitter.send(4)
        let output = Recorder<Int>()
        emitter.withCurrent() !+= output.record
        emitter.send(5)
        #expect(output.values == [4])
        #expect(emitter.subscriberCount == 0)
    }

    @Test func signalOnceOperator() {
        let emitter = SignalEmitter()
        let output = Recorder<Void>()
        emitter !+= { output.record() }
        emitter.send()
        emitter.send()
        #expect(output.count == 1)
    }

    @Test func chainedOperatorsComposeLeftToRight() {
        struct Pair: Equatable {
            var a: Int
            var b: Int
        }
        let emitter = ValueEmitter<Int>()
        let output = Recorder<Int>()
        emitter
            .map { Pair(a: $0 / 2, b: $0) }
            .filter { $0.b % 2 == 0 }
            .tap(\.a)
            .undup() += output.record
        // a: 0 0 1 2 2 2 3 3 4, of which b is even for 0 1 2 2 3 3 4, undupped to 0 1 2 3 4.
        for value in [0, 1, 2, 4, 5, 4, 6, 6, 8] { emitter.send(value) }
        #expect(output.values == [0, 1, 2, 3, 4])
    }
}
