import ComposeMachinery
import Testing

/// A relay's protocol, driven synchronously through every interleaving of its threads' steps
/// (``RelayModel``): sends from several threads, reentrant sends, a stop from another thread,
/// from the actor and from the handler itself, the hop to the actor, and the release of the
/// caller's handle. Each interleaving is checked for what ``Relay`` promises: one thread at a time
/// holds the role and is in the handler; values reach it once each, in send order; nothing is
/// lost until a stop; **nothing reaches the handler after `stop()` returned**; the handler is
/// released once, with nobody in it; and nothing is left waiting or scheduled at the end.
///
/// Each test expects the exact number of distinct interleavings: it shows that the exploration is
/// exhaustive, and changes only when the protocol's steps do.
@Suite struct RelayModelTests {
    // MARK: Inline

    @Test func sendsFromTwoThreads() {
        let model = RelayModel(threads: ["A": [.send("a1"), .send("a2")], "B": [.send("b1"), .send("b2")]])
        let report = model.exploreEveryInterleaving()
        #expect(report.failures == [])
        #expect(report.interleavings == 3_284)
    }

    @Test func aHandlerSendsAgainWhileAnotherThreadSends() {
        var model = RelayModel(threads: ["A": [.send("a")], "B": [.send("b")]])
        model.handlerSends = ["a": "a'", "b": "b'"]
        let report = model.exploreEveryInterleaving()
        #expect(report.failures == [])
        #expect(report.interleavings == 132)
    }

    /// A thread stops the relay while two others send: a send in progress on another thread is
    /// waited for, and nothing is called once `stop` returned.
    @Test func aStopFromAnotherThreadWhileTwoThreadsSend() {
        let model = RelayModel(threads: ["A": [.send("a1"), .send("a2")], "B": [.send("b")], "S": [.stop]])
        let report = model.exploreEveryInterleaving()
        #expect(report.failures == [])
        #expect(report.interleavings == 5_591)
    }

    /// The handler stops its own relay, on its first value, while another thread sends: the call in
    /// progress is the last.
    @Test func theHandlerStopsItsOwnRelay() {
        var model = RelayModel(threads: ["A": [.send("a1"), .send("a2")], "B": [.send("b")]])
        model.handlerStops = ["a1", "b"]
        let report = model.exploreEveryInterleaving()
        #expect(report.failures == [])
        #expect(report.interleavings == 162)
    }

    /// Two threads stop at once while a third sends.
    @Test func twoStopsAtOnce() {
        let model = RelayModel(threads: ["A": [.send("a1"), .send("a2")], "S": [.stop], "T": [.stop]])
        let report = model.exploreEveryInterleaving()
        #expect(report.failures == [])
        #expect(report.interleavings == 2_004)
    }

    // MARK: On an actor

    /// Another thread sends to a relay on the main actor while main-actor code sends too: the
    /// other thread's values wait for a task on the actor, or for the main-actor sender, which
    /// delivers them first.
    @Test func sendsFromTheActorAndFromAnotherThread() {
        var model = RelayModel(threads: ["O": [.send("o1"), .send("o2")], "M": [.send("m1"), .send("m2")]])
        model.isolated = true
        model.onTheActor = ["M"]
        let report = model.exploreEveryInterleaving()
        #expect(report.failures == [])
        #expect(report.interleavings == 116)
    }

    /// Another thread sends, then cancels (stops), while the actor delivers: no value reaches the
    /// handler after the stop returned, whether the actor was between values or in the handler.
    @Test func aStopFromAnotherThreadWhileTheActorDelivers() {
        var model = RelayModel(threads: ["O": [.send("o1"), .send("o2"), .stop], "M": [.send("m")]])
        model.isolated = true
        model.onTheActor = ["M"]
        let report = model.exploreEveryInterleaving()
        #expect(report.failures == [])
        #expect(report.interleavings == 1_191)
    }

    /// The actor's own code stops the relay while values sent from another thread wait for it.
    @Test func aStopOnTheActorWhileValuesWaitForIt() {
        var model = RelayModel(threads: ["O": [.send("o1"), .send("o2")], "M": [.stop]])
        model.isolated = true
        model.onTheActor = ["M"]
        let report = model.exploreEveryInterleaving()
        #expect(report.failures == [])
        #expect(report.interleavings == 18)
    }

    /// The handler, on the actor, sends again and stops its relay, while another thread sends.
    @Test func theHandlerOnTheActorSendsAndStops() {
        var model = RelayModel(threads: ["O": [.send("o1"), .send("o2")], "M": [.send("m")]])
        model.isolated = true
        model.onTheActor = ["M"]
        model.handlerSends = ["m": "m'"]
        model.handlerStops = ["o2"]
        let report = model.exploreEveryInterleaving()
        #expect(report.failures == [])
        #expect(report.interleavings == 151)
    }

    /// Releasing the caller's handle is not a cancellation: every value still arrives.
    @Test func releasingTheHandleLosesNothing() {
        var model = RelayModel(threads: ["O": [.send("o1"), .releaseHandle, .send("o2")], "M": [.send("m")]])
        model.isolated = true
        model.onTheActor = ["M"]
        let report = model.exploreEveryInterleaving()
        #expect(report.failures == [])
        #expect(report.interleavings == 322)
    }

    // MARK: The model catches broken protocols

    /// A stop that returns at once while another thread holds the role lets that thread call the
    /// handler after it returned.
    @Test func theModelCatchesAStopThatDoesNotWait() {
        var model = RelayModel(threads: ["A": [.send("a1"), .send("a2")], "S": [.stop]])
        model.stop = { state, _ in
            state.isStopped = true
            if !state.isDelivering {
                state.pending = 0
                return .dropEverything
            }
            return .done
        }
        let report = model.exploreEveryInterleaving()
        #expect(report.failures.contains { $0.contains("after stop returned") })
    }

    /// A send that does not look at the stopped mark delivers after the stop returned.
    @Test func theModelCatchesASendThatIgnoresAStop() {
        var model = RelayModel(threads: ["A": [.send("a1"), .send("a2")], "S": [.stop]])
        model.send = { state in
            state.isStopped = false
            defer { state.isStopped = true }
            return DeliveryStateMachine.send(&state)
        }
        let report = model.exploreEveryInterleaving()
        #expect(report.failures.contains { $0.contains("after stop returned") })
    }

    /// A task scheduled for a value that a main-actor sender delivered first finds nothing, and a
    /// value that arrives after the task began is not stranded.
    @Test func aValueAfterTheTaskBeganIsNotStranded() {
        var model = RelayModel(threads: ["O": [.send("o1"), .send("o2"), .send("o3")]])
        model.isolated = true
        let report = model.exploreEveryInterleaving()
        #expect(report.failures == [])
        #expect(report.interleavings > 1)
    }
}
