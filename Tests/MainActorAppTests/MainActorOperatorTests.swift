import Compose
import ComposeTestSupport
import Foundation
import Testing

// Emitter operators as a main-actor app target writes them (this target is built with
// `.defaultIsolation(MainActor.self)`): model types whose `Equatable` conformance is main-actor
// isolated, closures that read main-actor state, key paths into main-actor types. Nothing says
// `nonisolated` except where the article says it is needed.

/// An app's model type: a main-actor struct, its `Equatable` conformance main-actor isolated.
struct Contact: Equatable, Sendable {
    var name: String
    var age: Int
    var initials: String { String(name.prefix(1)) }  // main-actor isolated: no other thread reads it
}

/// App state the closures read: a main-actor class.
final class ContactFilter {
    var minimumAge = 18
    var suffix = "!"
    var seen = 0
}

/// The form the article gives for `only`, `not` and `undup()`: a plain model type marked
/// `nonisolated`, so its `Equatable` conformance can be used on any thread.
nonisolated enum Choice: Equatable, Sendable {
    case one, two, three
}

@Suite struct MainActorOperatorTests {
    @Test func operatorClosuresWrittenOnTheMainActorReadMainActorState() {
        let contacts = ValueEmitter<Contact>()
        let filter = ContactFilter()
        let reference = Contact(name: "Ada", age: 36)
        var heard: [String] = []
        contacts.filter { $0.age >= filter.minimumAge }.map { $0.name + filter.suffix } += { heard.append($0) }
        contacts.compactMap { $0 == reference ? nil : $0.initials } += { heard.append("initials " + $0) }
        contacts.scan(0) { count, _ in
            filter.seen += 1
            return count + 1
        } += { heard.append("count \($0)") }
        contacts.tap(\.initials) += { heard.append("tap " + $0) }
        contacts.undup { $0 == $1 } += { heard.append("changed " + $0.name) }
        contacts.undup { $0.initials == $1.initials } += { heard.append("new initial " + $0.initials) }

        contacts.send(reference)
        contacts.send(Contact(name: "Alan", age: 12))
        contacts.send(Contact(name: "Alan", age: 12))
        // Sent on the main actor with nothing waiting: heard before `send` returns, in order.
        #expect(
            heard == [
                "Ada!", "count 1", "tap A", "changed Ada", "new initial A",
                "initials A", "count 2", "tap A", "changed Alan",
                "initials A", "count 3", "tap A",
            ])
        #expect(filter.seen == 3)
    }

    @Test func aFlatMapWrittenOnTheMainActorReadsMainActorState() {
        let selected = ValueEmitter<Int>()
        let channels = [ValueEmitter<String>(), ValueEmitter<String>()]
        var heard: [String] = []
        selected.flatMap { channels[$0] } += { heard.append($0) }
        selected.send(0)
        channels[0].send("zero")
        selected.send(1)
        channels[0].send("dropped")
        channels[1].send("one")
        #expect(heard == ["zero", "one"])
    }

    @Test func operatorClosuresRunOnTheMainActorForValuesSentFromOtherThreads() async {
        let emitter = ValueEmitter<Int>()
        let filter = ContactFilter()
        var offMain = 0
        var heard: [Int] = []
        emitter
            .filter { value in
                if !NonisolatedCode.isOnMainActor { offMain += 1 }
                return value % 2 == 0
            }
            .map { value in
                if !NonisolatedCode.isOnMainActor { offMain += 1 }
                filter.seen += 1
                return value / 2
            } += { heard.append($0) }
        await Task.detached {
            for value in 0..<1_000 { emitter.send(value) }
        }.value
        emitter.send(1_000)  // sent on the main actor while earlier values may wait: after them
        #expect(heard == Array(0...500))
        #expect(filter.seen == 501)
        #expect(offMain == 0)
    }

    @Test func aFlatMapWrittenOnTheMainActorHearsOtherThreadsOnTheMainActorInOrder() async {
        let selected = ValueEmitter<Int>()
        let inner = ValueEmitter<Int>()
        var offMain = 0
        var switches = 0
        var heard: [Int] = []
        selected.flatMap { _ in
            if !NonisolatedCode.isOnMainActor { offMain += 1 }
            switches += 1
            return inner
        } += { heard.append($0) }
        await Task.detached { selected.send(0) }.value
        // The closure runs on the main actor, so the inner emitter is subscribed once it has.
        #expect(await settle { switches == 1 })
        await Task.detached {
            for value in 0..<300 { inner.send(value) }
        }.value
        #expect(await settle { heard.count == 300 })
        #expect(heard == Array(0..<300))
        #expect(switches == 1)
        #expect(offMain == 0)
    }

    @Test func aChainWithMainActorClosuresIsSilentOnceCancelReturned() async {
        let emitter = ValueEmitter<Int>()
        var transformed = 0
        var heard: [Int] = []
        let subscription =
            emitter.map { value in
                transformed += 1
                return value
            } += { heard.append($0) }
        await Task.detached {
            for value in 0..<200 { emitter.send(value) }  // waiting for the main actor
        }.value
        subscription.cancel()
        let heardAtCancel = heard.count
        let transformedAtCancel = transformed
        var later: [Int] = []
        emitter += { later.append($0) }  // a main-actor handler subscribed after, to wait for
        await Task.detached { emitter.send(-1) }.value
        emitter.send(-2)
        #expect(await settle { later == [-1, -2] })
        for _ in 0..<100 { await Task.yield() }  // lets anything else queued on the main actor run
        #expect(heard.count == heardAtCancel)
        #expect(transformed == transformedAtCancel)
        #expect(!heard.contains(-1) && !heard.contains(-2))
    }

    @Test func releasingAChainWithMainActorClosuresLosesNoValue() async {
        var emitter: ValueEmitter<Int>? = ValueEmitter<Int>()
        var heard: [Int] = []
        do {
            _ = emitter!.map { $0 * 10 }.filter { $0 >= 0 } += { heard.append($0) }
        }
        let sending = emitter!
        await Task.detached {
            for value in 0..<100 { sending.send(value) }
        }.value
        emitter = nil
        #expect(await settle { heard.count == 100 })
        #expect(heard == (0..<100).map { $0 * 10 })
    }

    /// `only`, `not` and `undup()` need the value's `Equatable` conformance on any thread: with a
    /// type marked `nonisolated`, as the article says, they compile and work in main-actor code.
    @Test func equatableOperatorsWorkWithANonisolatedModelType() {
        let choices = ValueEmitter<Choice>()
        var heard: [String] = []
        choices.only(.two) += { heard.append("two") }
        choices.not(.three) += { heard.append("not three: \($0)") }
        choices.undup() += { heard.append("changed: \($0)") }
        choices.filter { $0 == .three } += { _ in heard.append("three") }
        for choice in [Choice.one, .two, .two, .three] { choices.send(choice) }
        // A state type (`AnyState`) is nonisolated already.
        let states = ValueEmitter<LogInComponent.State>()
        states.undup() += { heard.append("state: \($0.email)") }
        states.send(.init())
        states.send(.init())
        #expect(
            heard == [
                "not three: one", "changed: one",
                "two", "not three: two", "changed: two",
                "two", "not three: two",
                "changed: three", "three", "state: ",
            ])
    }
}
