import ComposeTestSupport
import Foundation
import Testing

@testable import ComposeEmitters

/// A scope lets go of a subscription only once nothing of it is left to wait for: not while its
/// first `cancel()` is still on its way, nor (for a parent) while a child's handler that ended its
/// own scope still runs on its actor. What a sweep lets go of is released outside the scope's
/// lock, and a task started in a scope does not keep it alive once its last reference is gone.
@Suite struct ScopeSettlingTests {
    /// Another thread's `cancel()` of a nonisolated subscription waits for the emitter's lock
    /// (held by the test) when the scope sweeps (with `sweep`: 63 more adoptions, the 64th sweeps)
    /// and then ends. The sweep keeps the subscription, so `end()` cancels it as well and waits for
    /// the lock too; a send that starts once `end()` has returned reaches no handler of the scope.
    /// Without the sweep, the contrast: `end()` finds the subscription anyway.
    ///
    /// Guarantees: "Once any `end()` of an `ObservationScope` has returned, no handler of the
    /// scope is called (... a nonisolated one by no send that starts afterwards): every `end()`
    /// cancels every subscription as the first does".
    @Test(.timeLimit(.minutes(5)), arguments: [true, false])
    func noSendAfterEndReachesASubscriptionWhoseCancelIsOnItsWay(sweep: Bool) async {
        let emitter = ValueEmitter<Int>()
        let other = ValueEmitter<Int>()
        let scope = ObservationScope(label: "ScopeSettlingTests")
        let heard = LockedBox<[Int]>([])
        let subscription = scope.run { emitter += { value in heard.mutate { $0.append(value) } } }
        emitter.send(0)  // a locked send: publishes the snapshot, so the next one takes no lock
        #expect(heard.value == [0])

        let held = Flag()
        let release = Flag()
        holdLock(emitter.core.state, held: held, release: release)
        #expect(await eventually(timeout: .seconds(5)) { held.isRaised })
        startThread { subscription.cancel() }  // the first cancel: waits for the lock
        #expect(await eventually(timeout: .seconds(5)) { subscription.isCancelled })
        try? await Task.sleep(for: .milliseconds(20))
        if sweep { for _ in 0..<63 { scope.adopt(other += { _ in }) } }

        let ended = Flag()
        startThread {
            scope.end()
            ended.raise()
        }
        // end() cancels the subscription again, so it waits for the lock: it has not returned.
        let endReturned = await eventually(timeout: .seconds(1)) { ended.isRaised }
        if endReturned {
            _ = await returnsOnAThread(within: .seconds(2)) { emitter.send(1) }  // starts after end() returned
        }
        release.raise()
        #expect(await eventually(timeout: .seconds(5)) { ended.isRaised })
        #expect(
            !(endReturned && heard.value.contains(1)),
            "a send that started after end() returned reached a handler of the scope (sweep \(sweep))")
    }

    /// A child scope's handler, on an actor, ends its own scope: the call in progress is its last.
    /// Another thread's `end()` of the parent (or, the contrast, of the child), made while that
    /// call still runs, returns no sooner than the call.
    ///
    /// Guarantees: "an `end()` made on another thread while a handler of the scope runs on its
    /// actor waits for that call to return", and a parent's end "waits as the child's own end does".
    @Test(.timeLimit(.minutes(5)), arguments: [true, false])
    func aParentsEndWaitsForAChildHandlerThatEndedItsOwnScope(endTheParent: Bool) async {
        let emitter = ValueEmitter<Int>()
        let parent = ObservationScope(label: "ScopeSettlingTests.parent")
        let child = parent.makeChild(label: "ScopeSettlingTests.child")
        let handler = HeldHandler()
        handler.onEntry.mutate { $0 = { child.end() } }
        _ = await child.run { await handler.listen(to: emitter) }
        let exitedBeforeEndReturned = LockedBox<Bool?>(nil)
        let endReturned = Flag()
        startThread {
            emitter.send(1)
            guard spinUntil(timeout: .seconds(10), { handler.entered.isRaised && child.isEnded }) else {
                handler.release.raise()
                return
            }
            usleep(20_000)
            startThread {
                usleep(200_000)  // the end below is under way by now
                handler.release.raise()
            }
            if endTheParent { parent.end() } else { child.end() }
            exitedBeforeEndReturned.mutate { $0 = handler.exited.isRaised }
            endReturned.raise()
        }
        #expect(await eventually { endReturned.isRaised })
        #expect(
            exitedBeforeEndReturned.value == true,
            "\(endTheParent ? "the parent's" : "the child's") end() returned while the child's actor handler still ran")
    }

    /// The sweep lets go of a cancelled subscription to a `Future` whose operation holds a
    /// ``DeinitWatcher``: the watcher's deinit (user code) runs outside the scope's lock, so
    /// another thread can read the scope meanwhile.
    @Test(.timeLimit(.minutes(5)))
    func aSweptSubscriptionIsReleasedOutsideTheScopesLock() async {
        let scope = ObservationScope(label: "ScopeSettlingTests")
        let otherThreadBlocked = LockedBox<Bool?>(nil)
        let other = ValueEmitter<Int>()
        let heard = Flag()
        do {
            let watcher = DeinitWatcher {
                // Runs as the operation goes: can another thread read the scope meanwhile?
                let read = Flag()
                startThread {
                    _ = scope.childCount
                    read.raise()
                }
                otherThreadBlocked.mutate { $0 = !spinUntil(timeout: .seconds(1)) { read.isRaised } }
            }
            let subscription = scope.run {
                Emitters.Future { [watcher] () async -> Int in
                    _ = watcher
                    return 1
                } += { _ in heard.raise() }
            }
            #expect(await eventually(timeout: .seconds(10)) { heard.isRaised })
            subscription.cancel()
        }
        try? await Task.sleep(for: .milliseconds(50))  // the future's task is over
        #expect(otherThreadBlocked.value == nil, "the operation was released before the sweep")
        await onThreads(1) { _ in
            for _ in 0..<63 { scope.adopt(other += { _ in }) }  // the 64th sweeps
        }
        #expect(await eventually(timeout: .seconds(5)) { otherThreadBlocked.value != nil })
        #expect(otherThreadBlocked.value == false, "the operation was released under the scope's lock")
        scope.end()
    }

    /// What the sweep releases owns a child scope of the scope being swept: the child, released,
    /// ends and leaves its parent, which takes the parent's lock. The sweep has let go of that lock
    /// by then (a debug build would trap on the relock, a release build deadlock): the sweep
    /// finishes and the process exits normally.
    @Test(.timeLimit(.minutes(5)))
    func aChildScopeReleasedByASweepLeavesItsParent() async {
        await #expect(processExitsWith: .success) {
            let parent = ObservationScope(label: "ScopeSettlingTests.parent")
            let other = ValueEmitter<Int>()
            let heard = Flag()
            do {
                let child = parent.makeChild(label: "owned by the operation")
                let subscription = parent.run {
                    Emitters.Future { [child] () async -> Int in
                        _ = child
                        return 1
                    } += { _ in heard.raise() }
                }
                let deadline = ContinuousClock.now + .seconds(120)  // released by the test; long under load
                while !heard.isRaised, ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(1)) }
                subscription.cancel()
            }
            try? await Task.sleep(for: .milliseconds(50))  // the future's task is over
            let finished = Flag()
            startThread {
                for _ in 0..<63 { parent.adopt(other += { _ in }) }  // the 64th sweeps
                finished.raise()
            }
            let deadline = ContinuousClock.now + .seconds(5)
            while !finished.isRaised, ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(5)) }
            if !finished.isRaised { exit(3) }  // the sweep deadlocked
        }
    }

    /// A main-actor handler subscribed with `withCurrent()` in a scope, from another thread: the
    /// value handed over goes to the main actor (busy meanwhile) through a task started in the
    /// scope. The scope's last reference goes while that task waits: the scope is released (and
    /// so ends) at once, and its handler is not called afterwards.
    ///
    /// Guarantees: "A scope ends when its last reference goes, whatever its subscriptions run".
    @Test(.timeLimit(.minutes(5)))
    func aTaskStartedInAScopeDoesNotKeepTheReleasedScopeAlive() async {
        let emitter = ValueEmitter<Int>()
        emitter.send(1)
        let watcher = WeakScope()
        let released = Flag()
        let heardAfterRelease = LockedBox<Int>(0)
        let mainBusy = Flag()
        let freeMain = Flag()
        Task { @MainActor in
            mainBusy.raise()
            let deadline = ContinuousClock.now + .seconds(5)
            while !freeMain.isRaised, ContinuousClock.now < deadline { usleep(100) }
        }
        #expect(await eventually(timeout: .seconds(10)) { mainBusy.isRaised })
        let aliveAfterRelease = LockedBox<Bool?>(nil)
        await onThreads(1) { _ in
            do {
                let scope = ObservationScope(label: "ScopeSettlingTests.released")
                watcher.scope = scope
                scope.run {
                    _ =
                        emitter.withCurrent() += { @MainActor _ in
                            if released.isRaised { heardAfterRelease.mutate { $0 += 1 } }
                        }
                }
            }
            released.raise()
            aliveAfterRelease.mutate { $0 = watcher.scope != nil }
        }
        freeMain.raise()
        #expect(await eventually(timeout: .seconds(5)) { watcher.scope == nil })
        #expect(aliveAfterRelease.value == false, "the scope was still alive after its last reference went")
        #expect(heardAfterRelease.value == 0, "its handler was called after the scope's last reference went")
    }
}

/// Watches a scope without keeping it.
private final class WeakScope: @unchecked Sendable {  // Written on one thread before others read it.
    weak var scope: ObservationScope?
}
