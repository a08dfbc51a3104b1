import ComposeEmitters
import ComposeStore
import ComposeTestSupport
import ComposeTesting
import Testing

@Suite struct StoreTesterTests {
    struct Profile: Equatable, Sendable {
        var name: String
    }

    struct State: AnyState {
        var email = ""
        var count = 0
        var profile = Async<Profile>.uninitialized
    }

    /// A component whose observers change its state, now and later.
    struct Counter {
        @Store var state: State
        let increment = SignalEmitter(label: "Counter.increment")
        let setEmail = ValueEmitter<String>(label: "Counter.setEmail")
        let load = SignalEmitter(label: "Counter.load")
        let loaded = ValueEmitter<String>(label: "Counter.loaded")
        /// What the load waits for: the test opens it when it wants the reply.
        let reply = Gate()

        func connect(in scope: ObservationScope) {
            scope.run {
                increment += { $state.mutate { $0.count += 1 } }
                setEmail += { email in $state.email = email }
                load += {
                    $state.execute(\.profile) {
                        await reply.wait()
                        loaded.send("Jill")
                        return Profile(name: "Jill")
                    }
                }
            }
        }
    }

    @Test func stepsAndAsynchronousChanges() async {
        let counter = Counter()
        let scope = ObservationScope()
        counter.connect(in: scope)
        let tester = StoreTester(counter.$state)
        tester.track(counter.loaded)

        tester.send(counter.increment) { $0.count = 1 }
        tester.send(counter.setEmail, "jill@example.com") { $0.email = "jill@example.com" }
        tester.send(counter.load) { $0.profile = .loading(previous: nil) }
        counter.reply.open()
        await tester.receive { $0.profile = .success(Profile(name: "Jill")) }
        await tester.receive(counter.loaded, "Jill")
        await tester.finish()
        scope.end()
    }

    @Test func anUnassertedChangeFailsWithADiff() {
        let counter = Counter()
        let scope = ObservationScope()
        counter.connect(in: scope)
        let tester = StoreTester(counter.$state)
        expectFailure(
            "The state after send(Counter.increment) changed, and no change was asserted", "−   count: 0", "+   count: 1"
        ) {
            tester.send(counter.increment)
        }
        scope.end()
    }

    @Test func aWrongAssertionFailsWithADiff() {
        let counter = Counter()
        let scope = ObservationScope()
        counter.connect(in: scope)
        let tester = StoreTester(counter.$state)
        expectFailure("does not match the expectation", "−   count: 2", "+   count: 1") {
            tester.send(counter.increment) { $0.count = 2 }
        }
        scope.end()
    }

    @Test func unreceivedWorkFailsAtFinish() async {
        let counter = Counter()
        let scope = ObservationScope()
        counter.connect(in: scope)
        let tester = StoreTester(counter.$state)
        tester.track(counter.loaded)
        tester.send(counter.load) { $0.profile = .loading(previous: nil) }
        counter.reply.open()
        await expectFailure(
            "Work nobody checked", "1 state change not received", "Counter.loaded sent 1 value not received: [\"Jill\"]"
        ) {
            await eventually { counter.state.profile.value != nil }
            await tester.finish()
        }
        scope.end()
    }

    @Test func asynchronousWorkStillRunningFailsAtFinish() async {
        let counter = Counter()
        let scope = ObservationScope()
        counter.connect(in: scope)
        let tester = StoreTester(counter.$state)
        tester.send(counter.load) { $0.profile = .loading(previous: nil) }
        await expectFailure("Asynchronous work still running after", "execute(") {
            await tester.finish(timeout: .milliseconds(50))  // the reply never came
        }
        scope.end()
    }

    @Test func aChangeNotReceivedBeforeTheNextStepFails() async {
        let counter = Counter()
        let scope = ObservationScope()
        counter.connect(in: scope)
        let tester = StoreTester(counter.$state)
        tester.send(counter.load) { $0.profile = .loading(previous: nil) }
        counter.reply.open()
        await eventually { counter.state.profile.value != nil }
        expectFailure("1 state change made since the last step must be received before send(Counter.increment)") {
            tester.send(counter.increment) {
                $0.count = 1
                $0.profile = .success(Profile(name: "Jill"))
            }
        }
        await tester.finish()
        scope.end()
    }

    @Test func notExhaustiveChecksOnlyWhatIsAsserted() async {
        let counter = Counter()
        let scope = ObservationScope()
        counter.connect(in: scope)
        let tester = StoreTester(counter.$state, exhaustivity: .off)
        tester.send(counter.setEmail, "x@example.com")  // not asserted: fine
        tester.send(counter.increment) { $0.count = 1 }  // the email is not checked
        tester.send(counter.load)
        counter.reply.open()
        await tester.receive { $0.profile = .success(Profile(name: "Jill")) }  // waits for a match
        await tester.finish()
        scope.end()
    }

    /// Two changes made since the last step (as asynchronous work makes them) are received one
    /// at a time, the older first.
    @Test func changesAreReceivedInTheOrderTheyWereMade() async {
        let store = Store<State>()
        let tester = StoreTester(store)
        store.count = 1
        store.count = 2
        await tester.receive { $0.count = 1 }
        await tester.receive { $0.count = 2 }
        await tester.finish()
    }

    @Test func receivingWhenNothingComesFails() async {
        let store = Store<State>()
        let tester = StoreTester(store)
        await expectFailure("for a change of the state; none came") {
            await tester.receive(assert: { $0.count = 1 }, timeout: .milliseconds(30))
        }
    }
}

/// Opens once; waiting before or after it opens both end once it is open.
final class Gate: Sendable {
    private let state = LockedBox<(isOpen: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    func wait() async {
        await withCheckedContinuation { continuation in
            let resume = state.mutate { state -> Bool in
                if state.isOpen { return true }
                state.waiters.append(continuation)
                return false
            }
            if resume { continuation.resume() }
        }
    }

    func open() {
        let waiters = state.mutate { state in
            state.isOpen = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}
