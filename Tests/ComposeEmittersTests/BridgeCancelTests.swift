import ComposeMachinery
import ComposeTestSupport
import Foundation
import Testing

@testable import ComposeEmitters

/// The library's own callback subscriptions (an async sequence's emitter, a `Future`, the event
/// log) keep the promise every subscription makes: each `cancel()` call, a second one made while
/// the first is still on its way included, returns no sooner than the registration is gone.
///
/// Each test holds the lock the removal of the registration needs, lets a first `cancel()` wait
/// for it on another thread, then makes a second one.
@Suite struct BridgeCancelTests {
    /// A send that starts once the second `cancel()` of a subscription to an async sequence's
    /// emitter has returned reaches nobody: the second cancel waits for the lock as the first does.
    @Test(.timeLimit(.minutes(5)))
    func aSecondCancelOfAnAsyncSequenceSubscriptionWaitsForTheRegistrationToGo() async {
        let (stream, continuation) = AsyncStream<Int>.makeStream()
        defer { continuation.finish() }
        let emitter = stream.emitter()
        let heard = LockedBox<[Int]>([])
        let subscription =
            emitter += { result in
                if case .success(let value) = result { heard.mutate { $0.append(value) } }
            }
        continuation.yield(0)
        #expect(await eventually(timeout: .seconds(10)) { heard.value == [0] })

        let held = Flag()
        let release = Flag()
        holdLock(taskSourceCore(of: emitter).state, held: held, release: release)
        #expect(await eventually(timeout: .seconds(5)) { held.isRaised })
        startThread { subscription.cancel() }  // the first: waits for the lock
        #expect(await eventually(timeout: .seconds(5)) { subscription.isCancelled })
        try? await Task.sleep(for: .milliseconds(20))
        let secondReturned = await returnsOnAThread(within: .seconds(1)) { subscription.cancel() }
        if secondReturned {
            continuation.yield(1)  // its send starts after the second cancel returned
            _ = await eventually(timeout: .seconds(2)) { heard.value.contains(1) }
        }
        release.raise()
        #expect(
            !(secondReturned && heard.value.contains(1)),
            "the second cancel returned at once and a later send reached the handler")
    }

    /// The second `cancel()` of a subscription to a `Future` does not return while the lock its
    /// registration's removal needs is held.
    @Test(.timeLimit(.minutes(5)))
    func aSecondCancelOfAFutureSubscriptionWaitsForTheRegistrationToGo() async {
        let gate = Flag()
        defer { gate.raise() }
        let future = Emitters.Future<Int, Never> {
            while !gate.isRaised { try? await Task.sleep(for: .milliseconds(1)) }
            return 7
        }
        let subscription = future += { _ in }
        let held = Flag()
        let release = Flag()
        holdLock(taskSourceCore(of: future).state, held: held, release: release)
        #expect(await eventually(timeout: .seconds(5)) { held.isRaised })
        startThread { subscription.cancel() }  // the first: waits for the lock
        #expect(await eventually(timeout: .seconds(5)) { subscription.isCancelled })
        try? await Task.sleep(for: .milliseconds(20))
        let secondReturned = await returnsOnAThread(within: .seconds(1)) { subscription.cancel() }
        release.raise()
        #expect(!secondReturned, "the second cancel returned while the registration could not yet be removed")
    }

    /// The same for an `EventLog.observe` subscription, in a world of its own (the log of the
    /// process is left alone): the second `cancel()` does not return while the log's lock is held,
    /// and once it is let go the observer is gone.
    @Test(.timeLimit(.minutes(5)))
    func aSecondCancelOfAnEventLogSubscriptionWaitsForTheRegistrationToGo() async {
        let world = ComposeWorld(label: "BridgeCancelTests")
        let subscription = world.run { EventLog.observe { _ in } }
        let channel = world.value(for: ObjectIdentifier(EventLog.Channel.self)) { EventLog.Channel() }
        let held = Flag()
        let release = Flag()
        holdLock(channel.observers.state, held: held, release: release)
        #expect(await eventually(timeout: .seconds(5)) { held.isRaised })
        startThread { subscription.cancel() }  // the first: waits for the lock
        #expect(await eventually(timeout: .seconds(5)) { subscription.isCancelled })
        try? await Task.sleep(for: .milliseconds(20))
        let secondReturned = await returnsOnAThread(within: .seconds(1)) { subscription.cancel() }
        release.raise()
        #expect(!secondReturned, "the second cancel returned while the registration could not yet be removed")
        #expect(await eventually(timeout: .seconds(5)) { channel.observers.subscriberCount == 0 })
    }
}

/// The core of the task-backed source behind an async sequence's emitter or a `Future` (a
/// private property, read by reflection).
private func taskSourceCore<Source: Emitter>(of emitter: Source) -> EmitterCore<Source.Value> {
    let source = Mirror(reflecting: emitter).children.first { $0.label == "source" }!.value
    return (source as! TaskSource<Source.Value>).core
}
