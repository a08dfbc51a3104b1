import Benchmark
import ComposeEmitters
import OpenCombine
import Synchronization

/// Emitter scenarios: fan-out, an operator chain, subscription churn and allocations per send.
func emitterBenchmarks() {
    fanOut()
    mainActorFanOut()
    operatorChain()
    churn()
}

/// One send delivered to N subscribers. Peers: a plain loop over an array of closures (the
/// physical limit) and OpenCombine's `PassthroughSubject`. Every subscriber does the same work.
private func fanOut() {
    for subscribers in [1, 10, 100, 1_000, 10_000] {
        // About 100,000 deliveries per iteration, so each iteration is long enough to time.
        let sends = max(10, 100_000 / subscribers)
        let configuration = scenario(ops: sends * subscribers, unit: "deliveries")

        let emitter = ValueEmitter<Int>()
        for _ in 0..<subscribers { emitter += { blackHole($0) } }
        Benchmark("Emitters/fan-out N=\(subscribers)/Compose", configuration: configuration) { benchmark in
            for value in 0..<sends { emitter.send(value) }
        }

        if subscribers == 1 || subscribers == 100 {
            // The same subscribers made inside an observation scope, as a component's observers
            // are: each registers behind the scope's gate, which it looks at before each call.
            let scoped = ValueEmitter<Int>()
            let scope = ObservationScope(label: "fan-out")
            scope.run {
                for _ in 0..<subscribers { scoped += { blackHole($0) } }
            }
            precondition(scope.activeSubscriptionCount == subscribers, "every subscriber joined the scope")
            Benchmark("Emitters/fan-out N=\(subscribers)/Compose, in a scope", configuration: configuration) {
                benchmark in
                for value in 0..<sends { scoped.send(value) }
                blackHole(scope)
            }
        }

        let handlers: [(Int) -> Void] = (0..<subscribers).map { _ in { blackHole($0) } }
        Benchmark("Emitters/fan-out N=\(subscribers)/closure loop", configuration: configuration) { benchmark in
            for value in 0..<sends {
                for handler in handlers { handler(value) }
            }
        }

        if subscribers == 1 {
            // A list of closures made thread-safe by hand: the same loop, each send under an
            // uncontended lock (the standard library's `Mutex`), calling the handlers under it. It
            // keeps none of an emitter's promises (a handler that sends again deadlocks, one that
            // subscribes or cancels cannot, nothing is ordered across threads, no `lastValue`),
            // so it shows what those promises cost a send, not a target.
            let locked = Mutex<[@Sendable (Int) -> Void]>([{ blackHole($0) }])
            Benchmark("Emitters/fan-out N=1/closure loop under a lock", configuration: configuration) { benchmark in
                for value in 0..<sends {
                    locked.withLock { handlers in
                        for handler in handlers { handler(value) }
                    }
                }
            }
        }

        if subscribers == 1 {
            // The least a send can cost in any delivery that takes sends from every thread, in
            // one order, without making a sender wait or losing a value sent meanwhile: one
            // atomic read-modify-write to take the delivery role and one to give it up and see
            // whether values arrived meanwhile (a plain store there would need a full fence,
            // which costs as much). Uncontended compare-and-exchanges around the same loop; a
            // floor for the fan-out target, not a peer (it queues nothing and keeps no value).
            let role = Atomic<Int>(0)
            Benchmark(
                "Emitters/fan-out N=1/closure loop with two compare-and-exchanges",
                configuration: configuration
            ) { benchmark in
                for value in 0..<sends {
                    let (took, _) = role.compareExchange(expected: 0, desired: 1, ordering: .acquiring)
                    precondition(took, "nobody else holds the role")
                    for handler in handlers { handler(value) }
                    let (gave, _) = role.compareExchange(expected: 1, desired: 0, ordering: .releasing)
                    precondition(gave, "nobody else holds the role")
                }
            }
        }

        let subject = PassthroughSubject<Int, Never>()
        let cancellables = (0..<subscribers).map { _ in subject.sink { blackHole($0) } }
        Benchmark("Emitters/fan-out N=\(subscribers)/OpenCombine", configuration: configuration) { benchmark in
            for value in 0..<sends { subject.send(value) }
            blackHole(cancellables)
        }
    }
}

/// One send delivered to N handlers written in main-actor code, sent on the main actor: what an
/// app's button and its observers do. The handlers are main-actor isolated (`{ @MainActor in }`,
/// which a main-actor app target writes with no annotation), so each delivery checks that it runs
/// on the main actor and calls the handler there, before `send` returns. Peer: the same closure
/// loop, run on the main actor. Each iteration checks that every handler was called, at once.
private func mainActorFanOut() {
    for subscribers in [1, 100] {
        let sends = max(10, 100_000 / subscribers)
        let configuration = scenario(ops: sends * subscribers, unit: "deliveries")
        let heard = MainActorCalls()
        let emitter = ValueEmitter<Int>()
        for _ in 0..<subscribers {
            emitter += { @MainActor value in
                heard.count &+= 1
                blackHole(value)
            }
        }
        Benchmark("Emitters/main-actor fan-out N=\(subscribers)/Compose", configuration: configuration) { benchmark in
            await MainActor.run {
                let before = heard.count
                for value in 0..<sends { emitter.send(value) }
                precondition(heard.count - before == sends * subscribers, "every main-actor handler heard every value at once")
            }
        }

        let handlers: [@MainActor (Int) -> Void] = (0..<subscribers).map { _ in
            { value in
                heard.count &+= 1
                blackHole(value)
            }
        }
        Benchmark("Emitters/main-actor fan-out N=\(subscribers)/closure loop", configuration: configuration) { benchmark in
            await MainActor.run {
                let before = heard.count
                for value in 0..<sends {
                    for handler in handlers { handler(value) }
                }
                precondition(heard.count - before == sends * subscribers, "every closure was called")
            }
        }
    }
}

/// A counter touched on the main actor only.
private final class MainActorCalls: @unchecked Sendable {
    var count = 0
}

private struct Point: Equatable {
    var x: Int
    var y: Int
}

/// map → filter → undup → tap to one subscriber, against the same OpenCombine chain. Each
/// operator does real work: half the values are filtered out and half of the rest are duplicates.
private func operatorChain() {
    let sends = 10_000
    let configuration = scenario(ops: sends, unit: "sends")

    let emitter = ValueEmitter<Int>()
    emitter
        .map { Point(x: $0 >> 1, y: $0) }
        .filter { $0.x & 1 == 0 }
        .undup()
        .tap(\.x) += { blackHole($0) }
    Benchmark("Emitters/chain map-filter-undup-tap/Compose", configuration: configuration) { benchmark in
        for value in 0..<sends { emitter.send(value >> 1) }
    }

    let subject = PassthroughSubject<Int, Never>()
    let cancellable =
        subject
        .map { Point(x: $0 >> 1, y: $0) }
        .filter { $0.x & 1 == 0 }
        .removeDuplicates()
        .map(\.x)
        .sink { blackHole($0) }
    Benchmark("Emitters/chain map-filter-undup-tap/OpenCombine", configuration: configuration) { benchmark in
        for value in 0..<sends { subject.send(value >> 1) }
        blackHole(cancellable)
    }
}

/// Subscribe and cancel while 10 or 10,000 other subscribers stay live: the cost must not follow
/// the number of live subscribers.
private func churn() {
    let cycles = 10_000
    for live in [10, 10_000] {
        let emitter = ValueEmitter<Int>()
        let keep = (0..<live).map { _ in emitter += { blackHole($0) } }
        Benchmark(
            "Emitters/subscribe+cancel live=\(live)/Compose",
            configuration: scenario(ops: cycles, unit: "subscribe+cancel")
        ) { benchmark in
            for _ in 0..<cycles {
                let subscription = emitter += { blackHole($0) }
                subscription.cancel()
            }
            blackHole(keep)
        }

        let subject = PassthroughSubject<Int, Never>()
        let kept = (0..<live).map { _ in subject.sink { blackHole($0) } }
        Benchmark(
            "Emitters/subscribe+cancel live=\(live)/OpenCombine",
            configuration: scenario(ops: cycles, unit: "subscribe+cancel")
        ) { benchmark in
            for _ in 0..<cycles {
                let cancellable = subject.sink { blackHole($0) }
                cancellable.cancel()
            }
            blackHole(kept)
        }
    }
}
