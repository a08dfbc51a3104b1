import Compose
import ComposeTestSupport
import ComposeTesting
import Foundation
import Testing

/// Which actor each kind of callback runs on, in a main-actor app target: the table in the article
/// "The main actor and UI layers" (Compose's catalog), one test per row. Every test here is
/// main-actor isolated (the target's default isolation), and so is every closure written in it.
///
/// Each test runs in a sandbox of its own: the app's services (the user store the Auth tests log
/// in to) are per sandbox, so tests running in parallel do not see each other's users.
@Suite(.composeSandbox) struct MainActorIsolationTests {
    // MARK: Emitters

    @Test func aHandlerWrittenOnTheMainActorRunsBeforeSendReturnsWhenSentOnTheMainActor() {
        let emitter = ValueEmitter<Int>()
        var heard: [Int] = []
        emitter += { value in
            MainActor.preconditionIsolated()
            heard.append(value)
        }
        emitter.send(1)
        #expect(heard == [1])  // synchronously, as a button's handler
        emitter.send(2)
        #expect(heard == [1, 2])
    }

    @Test func valuesSentFromOtherThreadsReachAMainActorHandlerOnTheMainActorInSendOrder() async {
        let emitter = ValueEmitter<Int>()
        var heard: [Int] = []
        var offMain = 0
        emitter += { value in
            if !NonisolatedCode.isOnMainActor { offMain += 1 }
            heard.append(value)
        }
        await Task.detached {
            for value in 0..<500 { emitter.send(value) }
        }.value
        // Sent on the main thread while earlier values may still wait for the main actor: it is
        // delivered after them, and before `send` returns.
        emitter.send(500)
        #expect(heard == Array(0...500))
        #expect(offMain == 0)
    }

    @Test func concurrentSendersAreHeardOnTheMainActorInTheEmitterOrder() async {
        let emitter = ValueEmitter<Int>()
        let delivered = Recorder<Int>()
        NonisolatedCode.record(emitter, into: delivered)  // the emitter's own order, on its threads
        var heard: [Int] = []
        emitter += { heard.append($0) }
        await withTaskGroup(of: Void.self) { group in
            for sender in 0..<4 {
                group.addTask { for index in 0..<250 { emitter.send(sender * 1000 + index) } }
            }
        }
        #expect(await settle { heard.count == 1000 })
        #expect(heard == delivered.values)
    }

    @Test func sendsFromTheMainActorAndAnotherThreadInterleavedKeepTheEmitterOrder() async {
        // The main actor's sends take the direct call while nothing waits, and queue behind
        // values sent from the other thread while those wait for the main actor: the handler
        // hears every value once, in the order the emitter delivered them.
        let emitter = ValueEmitter<Int>()
        let delivered = Recorder<Int>()
        NonisolatedCode.record(emitter, into: delivered)  // in the emitter's order, as delivered
        var heard: [Int] = []
        emitter += { heard.append($0) }
        let other = Task.detached {
            for value in 0..<2_000 { emitter.send(value * 2 + 1) }
        }
        for value in 0..<2_000 {
            emitter.send(value * 2)
            if value % 8 == 0 { await Task.yield() }  // lets the queued values' task run between
        }
        await other.value
        #expect(await settle { heard.count == 4_000 })
        #expect(heard == delivered.values)
    }

    @Test func aNonisolatedHandlerStillRunsOnTheSendingThread() async {
        let emitter = ValueEmitter<Int>()
        let threads = Recorder<Bool>()
        NonisolatedCode.subscribe(emitter) { threads.record(NonisolatedCode.isOnMainActor) }
        await Task.detached { emitter.send(1) }.value
        #expect(threads.values == [false])  // already delivered, off the main thread
    }

    @Test func cancellingDropsValuesStillWaitingForTheMainActor() async {
        let emitter = ValueEmitter<Int>()
        var heard: [Int] = []
        let released = Recorder<Bool>()
        let subscription = Self.subscribe(to: emitter, released: released) { heard.append($0) }
        let done = Recorder<Bool>()  // a class: the thread may outlive this frame's locals
        startThread {
            for value in 0..<100 { emitter.send(value) }
            subscription.cancel()
            done.record(true)
        }
        // Keep the main actor busy (no `await`), so the queued values cannot be delivered before
        // the cancellation.
        #expect(spinUntil { !done.values.isEmpty })
        // The handler is released once nothing can call it any more.
        #expect(await settle { !released.values.isEmpty })
        #expect(heard.isEmpty)
    }

    /// Subscribes `body`, which holds a watcher that records when the subscription's handler is
    /// released (once nothing can call it any more).
    private static func subscribe(
        to emitter: ValueEmitter<Int>,
        released: Recorder<Bool>,
        _ body: @escaping (Int) -> Void
    ) -> EmitterSubscription {
        let watcher = DeinitWatcher { released.record(true) }
        return emitter += { value in
            _ = watcher
            body(value)
        }
    }

    @Test func valuesWaitingForTheMainActorAreDeliveredAfterTheirEmitterIsGone() async {
        // The subscription is discarded, not cancelled: what was sent before the emitter went
        // away still reaches the handler.
        var heard: [Int] = []
        let released = Recorder<Bool>()
        do {
            let emitter = ValueEmitter<Int>()
            emitter += { heard.append($0) }
            let watcher = DeinitWatcher { released.record(true) }
            startThread {
                for value in 0..<100 { emitter.send(value) }
                _ = watcher  // released with the thread's closure, with the emitter
            }
        }
        // Keep the main actor busy (no `await`), so that nothing is delivered to it, until the
        // emitter is gone with the thread's closure.
        #expect(spinUntil { !released.values.isEmpty })
        #expect(heard.isEmpty)
        #expect(await settle { heard.count == 100 })
        #expect(heard == Array(0..<100))
    }

    @Test func valuesWaitingForAMainActorObserverAreDeliveredAfterItsStoreIsGone() async {
        var heard: [[String]] = []
        let released = Recorder<Bool>()
        do {
            let store = Store<UserState>()
            store.observe(\.loggedIn) { heard.append($0) }  // the subscription is discarded
            let watcher = DeinitWatcher { released.record(true) }
            startThread {
                for index in 0..<100 { store.state.loggedIn = ["user \(index)"] }
                _ = watcher  // released with the thread's closure, with the store
            }
        }
        // Keep the main actor busy (no `await`), so that nothing is delivered to it, until the
        // store is gone with the thread's closure.
        #expect(spinUntil { !released.values.isEmpty })
        #expect(heard.isEmpty)
        #expect(await settle { heard.count == 100 })
        #expect(heard == (0..<100).map { ["user \($0)"] })
    }

    @Test func onceFromAnotherThreadIsHeardExactlyOnceOnTheMainActor() async {
        let signal = SignalEmitter()
        var count = 0
        let subscription =
            signal !+= {
                MainActor.preconditionIsolated()
                count += 1
            }
        await Task.detached { for _ in 0..<10 { signal.send() } }.value
        // Cancelled once the handler ran: from then on it is never called again.
        #expect(await settle { count == 1 && subscription.isCancelled })
        #expect(count == 1)
    }

    @Test func previousAndNewReachAMainActorHandlerInPairs() async {
        let emitter = ValueEmitter<Int>()
        var pairs: [String] = []
        emitter ~+= { new, previous in pairs.append("\(previous ?? -1)->\(new)") }
        await Task.detached { for value in 0..<3 { emitter.send(value) } }.value
        #expect(await settle { pairs.count == 3 })
        #expect(pairs == ["-1->0", "0->1", "1->2"])
    }

    @Test func anActorsHandlerRunsOnThatActorInOrder() async {
        let emitter = ValueEmitter<Int>()
        let counter = Counter()
        await counter.listen(to: emitter)
        for value in 0..<100 { emitter.send(value) }
        #expect(await settle { counter.values.count == 100 })
        #expect(counter.values.values == Array(0..<100))
    }

    // MARK: Stores

    @Test func aKeyPathObserverWrittenOnTheMainActorHearsBackgroundWritesOnTheMainActor() async {
        let store = Store<UserState>()
        var heard: [[String]] = []
        store.observe(\.loggedIn) { users in
            MainActor.preconditionIsolated()
            heard.append(users)
        }
        await Task.detached { store.state.loggedIn = ["jill"] }.value
        #expect(await settle { heard == [["jill"]] })
        store.state.loggedIn.append("chris")  // on the main thread: heard at once
        #expect(heard == [["jill"], ["jill", "chris"]])
    }

    @Test func willChangeAndRouterEmittersWrittenOnTheMainActorRunThere() async {
        let store = Store<UserState>()
        let router = Router()
        var heard: [String] = []
        store.willChange += { state in
            MainActor.preconditionIsolated()
            heard.append("will change to \(state.loggedIn)")
        }
        router.errors += { error in
            MainActor.preconditionIsolated()
            heard.append("refused \(error.kind)")
        }
        await Task.detached {
            store.state.loggedIn = ["jill"]
            Diagnostics.withHandler({ _ in }) { _ = router.pop() }  // nothing to pop: refused
        }.value
        #expect(await settle { heard.count == 2 })
        #expect(heard == [#"will change to ["jill"]"#, "refused poppingRoot"])
    }

    @Test func aMainActorObserverIsReleasedWithItsStore() {
        final class Captured {}
        weak var captured: Captured?
        do {
            let store = Store<UserState>()
            let object = Captured()
            captured = object
            store.observe(\.loggedIn) { _ in _ = object }  // main-actor: through a delivery
            _ = store
        }
        #expect(captured == nil)  // nothing kept the handler alive
    }

    @Test func aCancelledMainActorObserverIsReleased() {
        final class Captured {}
        weak var captured: Captured?
        let store = Store<UserState>()
        do {
            let object = Captured()
            captured = object
            let subscription = store.observe(\.loggedIn) { _ in _ = object }
            subscription.cancel()
        }
        #expect(captured == nil)
        _ = store
    }

    @Test func setStateFromMainActorCodeCommitsOnTheMainActor() async {
        let store = Store<UserState>()
        let commitsOnMain = Recorder<Bool>()
        NonisolatedCode.recordCommitIsolation(store, into: commitsOnMain)
        store.setState { state in state.loggedIn.append("jill") }
        store.setState { state in state.loggedIn.append("chris") }
        var read: [String] = []
        store.withState { state in read = state.loggedIn }  // and withState reads there
        #expect(await settle { read.count == 2 })
        #expect(read == ["jill", "chris"])
        #expect(commitsOnMain.values == [true, true])
    }

    @Test func setStateFromNonisolatedCodeStillRunsOnABackgroundTask() async {
        let store = Store<UserState>()
        let commitsOnMain = Recorder<Bool>()
        NonisolatedCode.recordCommitIsolation(store, into: commitsOnMain)
        NonisolatedCode.setState(store) { $0.loggedIn.append("jill") }
        _ = await store.settled()
        #expect(commitsOnMain.values == [false])
    }

    @Test func executeFromMainActorCodeCommitsOnTheMainActor() async {
        struct Profile: AnyState {
            var name: Async<String> = .uninitialized
        }
        let store = Store<Profile>()
        var changesOffMain = 0
        store.observe(\.name) { _ in if !NonisolatedCode.isOnMainActor { changesOffMain += 1 } }
        let commitsOnMain = Recorder<Bool>()
        NonisolatedCode.recordCommitIsolation(store, into: commitsOnMain)
        let task = store.execute(\.name) {
            try await Task.sleep(for: .milliseconds(5))
            return "Jill"
        }
        await task.value
        #expect(store.state.name.value == "Jill")
        #expect(commitsOnMain.values == [true, true])  // loading, then success
        #expect(changesOffMain == 0)
    }

    // MARK: Components

    @Test func theSeedsAuthFlowDrivenFromAMainActorScreen() async {
        let screen = AuthScreen()
        let root = screen.host.root
        root.logIn.state.email = "jill@example.com"
        root.logIn.state.password = "secret-password"
        #expect(screen.emailLabel == "jill@example.com")

        root.logIn.logIn.send()
        #expect(screen.log.lines.contains("log in tapped"))
        #expect(await settle { screen.log.lines.contains(#"users ["jill@example.com"]"#) })

        root.logIn.openSignUp.send()
        #expect(screen.host.visibleIDs == ["AuthComponent", "AuthComponent/signUp"])
        #expect(screen.log.lines.contains("to sign up"))
        root.signUp.openLogIn.send()
        root.logIn.openSignUp.send()
        root.signUp.openLogIn.send()
        #expect(screen.log.lines.filter { $0 == "back to log in, once" }.count == 1)
        screen.host.unmount()
    }

    @Test func lifecycleHandlersWrittenOnTheMainActorRunThere() {
        let host = ComponentHost(AuthComponent(), visibility: .manual)
        var events: [String] = []
        host.root.logIn.didAppear += { events.append("logIn appeared") }
        host.root.logIn.didDisappear += { events.append("logIn disappeared") }
        let root = host.rootNode!
        let logIn = host.node(\.logIn)!
        host.setVisible(root, true)
        host.setVisible(logIn, true)
        host.setVisible(logIn, false)
        #expect(events == ["logIn appeared", "logIn disappeared"])
        host.unmount()
    }
}

/// An actor whose handler runs on it.
actor Counter {
    let values = Recorder<Int>()

    func listen(to emitter: ValueEmitter<Int>) {
        emitter += { value in
            self.preconditionIsolated()
            self.values.record(value)
        }
    }
}

/// The seed's components in a main-actor target, through a main-actor host.
@Suite(.composeSandbox) struct MainActorComponentTests {
    @Test func aComponentThatIsAlsoAViewObservesWithMainActorCode() {
        let host = ComponentHost(BannerComponent())
        host.root.tap.send()
        #expect(AppLog.shared.lines.suffix(2) == ["banner appeared", "banner Banner"])
        host.unmount()
    }

    @Test func theSeedsHandlersCallTheAppsServices() {
        let host = ComponentHost(AuthComponent())
        host.root.logIn.state.email = "chris@example.com"
        host.root.logIn.state.password = "secret-password"
        host.root.logIn.logIn.send()
        #expect(host.root.services.user.store.state.loggedIn.contains("chris@example.com"))
        #expect(AppLog.shared.lines.contains("logged in chris@example.com"))
        host.root.logIn.openSignUp.send()
        #expect(AppLog.shared.lines.contains("router: sign up"))
        #expect(host.visibleIDs == ["AuthComponent", "AuthComponent/signUp"])
        host.unmount()
    }

    @Test func aRouteChangedFromABackgroundTaskIsAppliedOnTheMainActor() async {
        let host = ComponentHost(AuthComponent())
        let router = host.root.router
        var appearedOnMain: [Bool] = []
        host.root.signUp.didAppear += { appearedOnMain.append(NonisolatedCode.isOnMainActor) }
        let pushed = await Task.detached { router.replace(\AuthComponent.signUp) }.value
        #expect(pushed)
        #expect(await settle { host.visibleIDs == ["AuthComponent", "AuthComponent/signUp"] })
        #expect(appearedOnMain == [true])
        host.unmount()
    }
}

/// Waits on the main actor, letting its queued jobs run, until `condition` holds (60 s at most):
/// yielding first, which lets the main actor's queued jobs run without arming a timer, then
/// sleeping a millisecond at a time.
func settle(_ condition: () -> Bool) async -> Bool {
    for _ in 0..<1_000 where !condition() {
        await Task.yield()
    }
    for _ in 0..<60_000 where !condition() {
        try? await Task.sleep(for: .milliseconds(1))
    }
    return condition()
}

/// Calls `onDeinit` when released: tells a test that whatever held it has let go.
nonisolated final class DeinitWatcher: Sendable {
    let onDeinit: @Sendable () -> Void

    init(_ onDeinit: @escaping @Sendable () -> Void) {
        self.onDeinit = onDeinit
    }

    deinit { onDeinit() }
}

/// Spins, without suspending, until `condition` holds (true) or a minute has passed (false):
/// keeps the calling actor busy meanwhile. A minute, because the whole suite on two cores can
/// keep another thread waiting for seconds.
func spinUntil(_ condition: () -> Bool) -> Bool {
    let deadline = ContinuousClock.now + testWaitLimit
    while !condition() {
        if ContinuousClock.now >= deadline { return false }
        usleep(100)  // blocks the caller without taking a core from the threads it waits for
    }
    return true
}
