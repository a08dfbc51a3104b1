import ComposeTestSupport
import Testing

@testable import ComposeEmitters

/// Emitters as async sequences, and async work as emitters, with cancellation both ways.
@Suite struct BridgeTests {
    @Test func valuesDeliversSentValuesInOrder() async {
        let emitter = ValueEmitter<Int>()
        let consumer = Task {
            var received: [Int] = []
            for await value in emitter.values {
                received.append(value)
                if received.count == 3 { break }
            }
            return received
        }
        #expect(await eventually { emitter.subscriberCount == 1 })
        for value in 1...3 { emitter.send(value) }
        #expect(await consumer.value == [1, 2, 3])
        // Leaving the loop released the sequence, which cancelled the subscription.
        #expect(await eventually { emitter.subscriberCount == 0 })
    }

    @Test func cancellingTheConsumingTaskCancelsTheSubscription() async {
        let emitter = SignalEmitter()
        let started = Recorder<Void>()
        let consumer = Task {
            var count = 0
            let stream = emitter.values
            started.record()
            for await _ in stream { count += 1 }
            return count
        }
        await started.wait(forCount: 1)
        #expect(await eventually { emitter.subscriberCount == 1 })
        consumer.cancel()
        _ = await consumer.value
        #expect(await eventually { emitter.subscriberCount == 0 })
    }

    @Test func endingTheScopeFinishesTheSequence() async {
        let emitter = ValueEmitter<Int>()
        let scope = ObservationScope()
        let stream = scope.run { emitter.values }
        emitter.send(1)
        scope.end()
        var received: [Int] = []
        for await value in stream { received.append(value) }
        #expect(received == [1])
        #expect(emitter.subscriberCount == 0)
    }

    @Test func bufferingPolicyKeepsTheNewest() async {
        let emitter = ValueEmitter<Int>()
        let stream = emitter.values(bufferingPolicy: .bufferingNewest(1))
        for value in 1...5 { emitter.send(value) }
        var iterator = stream.makeAsyncIterator()
        #expect(await iterator.next() == 5)
    }

    @Test func asyncSequenceElementsArriveAsSuccesses() async {
        let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
        let emitter = stream.emitter()
        let output = Recorder<Int>()
        emitter += { result in
            if case .success(let value) = result { output.record(value) }
        }
        for value in 1...3 { continuation.yield(value) }
        continuation.finish()
        await output.wait(forCount: 3)
        #expect(output.values == [1, 2, 3])
    }

    @Test func aThrownErrorArrivesAsAFailure() async {
        struct Boom: Error, Equatable {}
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: Int.self)
        let output = Recorder<String>()
        stream.emitter() += { result in
            switch result {
            case .success(let value): output.record("\(value)")
            case .failure(let error): output.record(error is Boom ? "boom" : "other")
            }
        }
        continuation.yield(1)
        continuation.finish(throwing: Boom())
        await output.wait(forCount: 2)
        #expect(output.values == ["1", "boom"])
    }

    @Test func cancellingTheLastSubscriptionCancelsTheIteration() async {
        let terminated = Recorder<Void>()
        let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
        continuation.onTermination = { _ in terminated.record() }
        let emitter = stream.emitter()
        let output = Recorder<Int>()
        let subscription = emitter += { if case .success(let value) = $0 { output.record(value) } }
        continuation.yield(1)
        await output.wait(forCount: 1)
        subscription.cancel()
        // The iterating task was cancelled, so the stream terminated.
        #expect(await terminated.wait(forCount: 1))
    }

    @Test func cancelStopsTheIteration() async {
        let terminated = Recorder<Void>()
        let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
        continuation.onTermination = { _ in terminated.record() }
        let emitter = stream.emitter()
        emitter += { _ in }
        emitter.cancel()
        #expect(await terminated.wait(forCount: 1))
    }

    @Test func futureRunsOnceAndReplaysItsResultToLateSubscribers() async {
        let runs = Recorder<Void>()
        let future = Emitters.Future { () async -> Int in
            runs.record()
            return 42
        }
        let first = Recorder<Int>()
        future += { first.record($0.get()) }
        await first.wait(forCount: 1)
        let second = Recorder<Int>()
        future += { second.record($0.get()) }
        #expect(second.values == [42])
        #expect(runs.count == 1)
    }

    @Test func futureWithTypedFailure() async {
        struct Offline: Error {}
        let future = Emitters.Future { () async throws(Offline) -> Int in throw Offline() }
        let output = Recorder<Bool>()
        future += { result in
            if case .failure = result { output.record(true) }
        }
        #expect(await output.wait(forCount: 1))
    }

    @Test func cancellingTheFutureBeforeItFinishesSendsNothing() async {
        let started = Recorder<Void>()
        let future = Emitters.Future { () async throws -> Int in
            started.record()
            try await Task.sleep(for: .seconds(3_600))
            return 1
        }
        let output = Recorder<Result<Int, any Error>>()
        let subscription = future += output.record
        await started.wait(forCount: 1)
        subscription.cancel()
        // The sleeping task was cancelled and its CancellationError was not sent.
        for _ in 0..<100 { await Task.yield() }
        #expect(output.count == 0)
    }
}
