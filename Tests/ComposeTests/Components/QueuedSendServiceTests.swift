import Compose
import ComposeTestSupport
import Foundation
import Testing

// A tree's service override scope when values queue behind another sender's: a nonisolated
// handler runs in the scope of the thread that delivers the value (values queued behind a send are
// delivered by its thread); a handler on an actor runs in the tree's scope, whoever sent. And the
// inner stages of a tree's flatMap run in the tree's scope. Every wait is bounded.

struct QueueNamer: Service {
    var name = "app"
}

extension Services {
    var queueNamer: QueueNamer {
        get { self[QueueNamer.self] }
        set { self[QueueNamer.self] = newValue }
    }
}

/// A tree whose (nonisolated) handler records the service it reads, and holds the delivery of
/// the value 1 until `release` is raised (at most 120 s).
struct HoldingReader: Component {
    let greet = ValueEmitter<Int>()
    let heard = LockedBox<[String]>([])
    let entered = Flag()
    let release = Flag()
    var observers: Void {
        greet += { value in
            heard.mutate { $0.append("\(value):\(services.queueNamer.name)") }
            if value == 1 {
                entered.raise()
                let deadline = ContinuousClock.now + .seconds(120)
                while !release.isRaised, ContinuousClock.now < deadline { usleep(100) }
            }
        }
    }
}

/// A tree whose handler is written on the main actor and records the service it reads.
struct MainActorNameReader: Component {
    let greet = ValueEmitter<Int>()
    let heard = LockedBox<[String]>([])
    var observers: Void {
        greet += { @MainActor value in
            heard.mutate { $0.append("\(value):\(services.queueNamer.name)") }
        }
    }
}

@Suite struct QueuedSendServiceTests {
    /// Thread A sends 1 inside a scope opened inside the tree's, and its delivery is under way
    /// when thread B, in no scope, sends 2: A delivers 2 too, in A's scope.
    @Test func aValueQueuedBehindASendInAnInnerScopeIsDeliveredInThatScope() async {
        let tester = ComponentTester(HoldingReader(), services: { $0.queueNamer = QueueNamer(name: "tester") })
        let root = tester.root
        let greet = root.greet
        let firstDone = Flag()
        startThread {
            tester.run {
                Services.withOverrides({ $0.queueNamer = QueueNamer(name: "inner") }) { greet.send(1) }
            }
            firstDone.raise()
        }
        #expect(await eventually { root.entered.isRaised })
        let secondDone = Flag()
        startThread {
            greet.send(2)  // another thread, in no scope: queued for thread A
            secondDone.raise()
        }
        #expect(await eventually { secondDone.isRaised })
        root.release.raise()
        #expect(await eventually { firstDone.isRaised })
        #expect(root.heard.value == ["1:inner", "2:inner"])
        tester.unmount()
    }

    /// The reverse: thread A sends 1 in no scope (the tree's services), and thread B sends 2
    /// inside a scope opened inside the tree's while A delivers: A delivers 2, in the tree's scope.
    @Test func aValueSentInAnInnerScopeBehindAnotherSendIsDeliveredInTheDeliverersScope() async {
        let tester = ComponentTester(HoldingReader(), services: { $0.queueNamer = QueueNamer(name: "tester") })
        let root = tester.root
        let greet = root.greet
        let firstDone = Flag()
        startThread {
            greet.send(1)
            firstDone.raise()
        }
        #expect(await eventually { root.entered.isRaised })
        let secondDone = Flag()
        startThread {
            tester.run {
                Services.withOverrides({ $0.queueNamer = QueueNamer(name: "inner") }) { greet.send(2) }
            }
            secondDone.raise()
        }
        #expect(await eventually { secondDone.isRaised })
        root.release.raise()
        #expect(await eventually { firstDone.isRaised })
        #expect(root.heard.value == ["1:tester", "2:tester"])
        tester.unmount()
    }

    /// Main-actor handler: thread A (inside a scope opened inside the tree's) sends 1, then
    /// thread B (no scope) sends 2, both while the main actor is busy: both values are handed to
    /// the main actor, where the handler runs in the tree's scope.
    @MainActor
    @Test func aMainActorHandlerRunsInTheTreesScopeForAValueSentInAnInnerScope() async {
        let tester = ComponentTester(MainActorNameReader(), services: { $0.queueNamer = QueueNamer(name: "tester") })
        let root = tester.root
        let greet = root.greet
        let firstDone = Flag()
        startThread {
            tester.run {
                Services.withOverrides({ $0.queueNamer = QueueNamer(name: "inner") }) { greet.send(1) }
            }
            firstDone.raise()
        }
        // Keep the main actor busy (no suspension) while both threads send.
        let firstSent = spin(timeout: testWaitLimit) { firstDone.isRaised }
        #expect(firstSent)
        let secondDone = Flag()
        startThread {
            greet.send(2)
            secondDone.raise()
        }
        let secondSent = spin(timeout: testWaitLimit) { secondDone.isRaised }
        #expect(secondSent)
        #expect(root.heard.value.isEmpty)  // the main actor was busy
        let arrived = await mainActorSettles { root.heard.value.count == 2 }
        #expect(arrived)
        #expect(root.heard.value == ["1:tester", "2:tester"])
        tester.unmount()
    }

    /// Main-actor handler, reverse: A (no scope) sends 1, then B (inner scope) sends 2, both
    /// while the main actor is busy: the task that delivers both takes neither sender's scope.
    @MainActor
    @Test func aMainActorHandlerRunsInTheTreesScopeWhicheverSenderScheduledItsDelivery() async {
        let tester = ComponentTester(MainActorNameReader(), services: { $0.queueNamer = QueueNamer(name: "tester") })
        let root = tester.root
        let greet = root.greet
        let firstDone = Flag()
        startThread {
            greet.send(1)
            firstDone.raise()
        }
        let firstSent = spin(timeout: testWaitLimit) { firstDone.isRaised }
        #expect(firstSent)
        let secondDone = Flag()
        startThread {
            tester.run {
                Services.withOverrides({ $0.queueNamer = QueueNamer(name: "inner") }) { greet.send(2) }
            }
            secondDone.raise()
        }
        let secondSent = spin(timeout: testWaitLimit) { secondDone.isRaised }
        #expect(secondSent)
        #expect(root.heard.value.isEmpty)
        let arrived = await mainActorSettles { root.heard.value.count == 2 }
        #expect(arrived)
        #expect(root.heard.value == ["1:tester", "2:tester"])
        tester.unmount()
    }
}

/// Spins without suspending until `condition` holds or `timeout` has passed.
private func spin(timeout: Duration, _ condition: () -> Bool) -> Bool {
    let deadline = ContinuousClock.now + timeout
    while !condition() {
        if ContinuousClock.now >= deadline { return false }
        usleep(100)
    }
    return true
}

/// A tree that follows, with `flatMap`, an emitter mapped by a closure that reads a service.
struct FollowingWithFlatMap: Component {
    let refresh = SignalEmitter()
    let source = ValueEmitter<Int>()
    let heard = LockedBox<[String]>([])
    var observers: Void {
        refresh.flatMap { source.map { value in "\(value):\(services.queueNamer.name)" } } += { text in
            heard.mutate { $0.append(text) }
        }
    }
}

/// The same with the inner `map` written on the main actor.
struct FollowingOnTheMainActor: Component {
    let refresh = SignalEmitter()
    let source = ValueEmitter<Int>()
    let heard = LockedBox<[String]>([])
    var observers: Void {
        refresh.flatMap { source.map { @MainActor value in "\(value):\(services.queueNamer.name)" } } += { text in
            heard.mutate { $0.append(text) }
        }
    }
}

@Suite struct FlatMapTreeServiceTests {
    /// The `map` closure of the inner emitter a tree's `flatMap` follows is an operator closure
    /// written in the tree's observers. Sent through the tester (control) it reads the tester's
    /// services; sent by the test itself or by another thread it must too.
    ///
    @Test func theInnerMapOfATreesFlatMapReadsTheTreesServicesWhoeverSends() async {
        let tester = ComponentTester(FollowingWithFlatMap(), services: { $0.queueNamer = QueueNamer(name: "tester") })
        let root = tester.root
        tester.send(root.refresh)
        tester.send(root.source, 1)  // through the tester (control)
        root.source.send(2)  // the test itself
        let source = root.source
        let done = Flag()
        startThread {
            source.send(3)  // another thread
            done.raise()
        }
        #expect(await eventually { done.isRaised })
        #expect(root.heard.value == ["1:tester", "2:tester", "3:tester"])
        tester.unmount()
    }

    /// The same with the inner `map` written on the main actor, the outer value sent by the test.
    @Test func theInnerMainActorMapOfATreesFlatMapReadsTheTreesServicesWhoeverSends() async {
        let tester = ComponentTester(
            FollowingOnTheMainActor(), services: { $0.queueNamer = QueueNamer(name: "tester") })
        let root = tester.root
        root.refresh.send()  // the test itself
        tester.send(root.source, 1)  // through the tester
        #expect(await eventually { root.heard.value.count == 1 })
        root.source.send(2)  // the test itself, once 1 has been heard (its own task to the main actor)
        #expect(await eventually { root.heard.value.count == 2 })
        #expect(root.heard.value == ["1:tester", "2:tester"])
        tester.unmount()
    }
}
