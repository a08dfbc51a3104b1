import Compose
import Foundation
import Synchronization
import Testing

/// Which actor each kind of callback runs on, in a main-actor app target: the table in README's
/// "Main actor" section, one test per row. Every test here is main-actor isolated (the target's
/// default isolation), and so is every closure written in it.
@Suite struct MainActorIsolationTests {
    /// Waits on the main actor, letting its queued jobs run, until `condition` holds (60 s at most).
    func settle(_ condition: () -> Bool) async -> Bool {
        for _ in 0..<60_000 where !condition() {
            try? await Task.sleep(for: .milliseconds(1))
        }
        return condition()
    }

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
            if !onMainActor() { offMain += 1 }
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
        Self.recordNonisolated(emitter, into: delivered)  // the emitter's own order, on its threads
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

    @Test func aNonisolatedHandlerStillRunsOnTheSendingThread() async {
        let emitter = ValueEmitter<Int>()
        let threads = Recorder<Bool>()
        Self.subscribeNonisolated(emitter) { threads.record(onMainActor()) }
        await Task.detached { emitter.send(1) }.value
        #expect(threads.values == [false])  // already delivered, off the main thread
    }

    @Test func cancellingDropsValuesStillWaitingForTheMainActor() async {
        let emitter = ValueEmitter<Int>()
        var heard: [Int] = []
        let subscription = emitter += { heard.append($0) }
        let done = Atomic<Bool>(false)
        Task.detached {
            for value in 0..<100 { emitter.send(value) }
            subscription.cancel()
            done.store(true, ordering: .releasing)
        }
        // Keep the main actor busy (no `await`), so the queued values cannot be delivered before
        // the cancellation.
        while !done.load(ordering: .acquiring) {}
        try? await Task.sleep(for: .milliseconds(50))
        #expect(heard.isEmpty)
    }

    @Test func onceFromAnotherThreadIsHeardExactlyOnceOnTheMainActor() async {
        let signal = SignalEmitter()
        var count = 0
        signal !+= {
            MainActor.preconditionIsolated()
            count += 1
        }
        await Task.detached { for _ in 0..<10 { signal.send() } }.value
        #expect(await settle { count == 1 })
        try? await Task.sleep(for: .milliseconds(20))
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
        #expect(await settle { counter.snapshot().count == 100 })
        #expect(counter.snapshot() == Array(0..<100))
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

    @Test func setStateFromMainActorCodeCommitsOnTheMainActor() async {
        let store = Store<UserState>()
        let commitsOnMain = Recorder<Bool>()
        Self.recordCommitThreads(store, into: commitsOnMain)
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
        Self.recordCommitThreads(store, into: commitsOnMain)
        Self.appendInBackground(store, "jill")
        _ = await store.settled()
        #expect(commitsOnMain.values == [false])
    }

    @Test func executeFromMainActorCodeCommitsOnTheMainActor() async {
        struct Profile: AnyState {
            var name: Async<String> = .uninitialized
        }
        let store = Store<Profile>()
        var changesOffMain = 0
        store.observe(\.name) { _ in if !onMainActor() { changesOffMain += 1 } }
        let commitsOnMain = Recorder<Bool>()
        Self.recordCommitThreads(store, into: commitsOnMain)
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

    // MARK: Helpers written in nonisolated code

    nonisolated static func recordNonisolated(_ emitter: ValueEmitter<Int>, into recorder: Recorder<Int>) {
        emitter += { recorder.record($0) }
    }

    nonisolated static func subscribeNonisolated(_ emitter: ValueEmitter<Int>, _ body: @escaping @Sendable () -> Void) {
        emitter += { _ in body() }
    }

    nonisolated static func recordCommitThreads<State>(_ store: Store<State>, into recorder: Recorder<Bool>) {
        store.didChange += { _ in recorder.record(onMainActor()) }
    }

    nonisolated static func appendInBackground(_ store: Store<UserState>, _ name: String) {
        store.setState { $0.loggedIn.append(name) }
    }
}

/// Whether the caller runs on the main actor, asked without trapping: the main actor's executor
/// is the main dispatch queue (the test runner drains it from a worker thread, so
/// `Thread.isMainThread` would not tell).
nonisolated func onMainActor() -> Bool {
    _ = mainQueueMarked
    return DispatchQueue.getSpecific(key: mainQueueKey) != nil
}

nonisolated let mainQueueKey = DispatchSpecificKey<Bool>()
nonisolated let mainQueueMarked: Void = DispatchQueue.main.setSpecific(key: mainQueueKey, value: true)

/// An actor whose handler runs on it.
actor Counter {
    private let values = Recorder<Int>()

    func listen(to emitter: ValueEmitter<Int>) {
        emitter += { value in
            self.assertIsolated()
            self.values.record(value)
        }
    }

    nonisolated func snapshot() -> [Int] { values.values }
}

/// Values recorded from any thread.
final class Recorder<Value: Sendable>: Sendable {
    private let storage = Mutex<[Value]>([])

    nonisolated init() {}

    nonisolated func record(_ value: Value) {
        storage.withLock { $0.append(value) }
    }

    nonisolated var values: [Value] { storage.withLock { $0 } }
}
