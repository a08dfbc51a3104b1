import Compose
import ComposePersistence
import ComposeTestSupport
import ComposeTesting
import Dispatch
import Foundation
import Testing

/// What a sandbox isolates, and what escapes it.
@Suite struct SandboxTests {
    struct Card: Referable {
        let id: Int
        var title: String
    }

    struct Counter: Service {
        let made = UUID()
        init() {}
    }

    @Test func entitiesOfOneIDAreSeparateInEachSandbox() {
        let outside = Referred(Card(id: 1, title: "outside"))
        let first = withComposeSandbox { _ in Referred(Card(id: 1, title: "first")) }
        let second = withComposeSandbox { _ in Referred(Card(id: 1, title: "second")) }
        #expect(outside.value.title == "outside")
        #expect(first.value.title == "first")
        #expect(second.value.title == "second")
        // Inside one sandbox, one id is one entity, as everywhere.
        withComposeSandbox { _ in
            let a = Referred(Card(id: 7, title: "a"))
            let b = Referred(Card(id: 7, title: "b"))
            #expect(a == b)
            #expect(b.value.title == "a")
        }
    }

    @Test func servicesAreTheSandboxsOwn() {
        let app = Services.current[Counter.self]
        let inside = withComposeSandbox { _ in Services.current[Counter.self] }
        #expect(inside.made != app.made)  // not the app's, though the app made one first
        #expect(withComposeSandbox { _ in Services.current[Counter.self] }.made != inside.made)
    }

    @Test func persistenceDefaultsToTheSandboxsDirectoryWhichIsRemovedAfterItsAutosaves() async throws {
        struct State: AnyState, Codable { var value = 0 }
        let directory = try await withComposeSandbox { sandbox in
            let storage = FilePersistentStorage(key: "counter")
            #expect(storage.directory == sandbox.directory)
            let store = Store<State>(storage: storage, autosave: .coalescing(window: .seconds(60)))
            store.state.value = 1
            store.state.value = 2  // pending: written when the store goes, before the sandbox ends
            try await store.persistence.flush()
            #expect(FileManager.default.fileExists(atPath: storage.fileURL.path))
            return sandbox.directory
        }
        #expect(!FileManager.default.fileExists(atPath: directory.path))
    }

    @Test func theEventLogOfASandboxHoldsItsOwnEvents() async {
        let label = "SandboxTests.log"
        let outside = Recorder<String>()
        let observation = EventLog.observe { if $0.source.hasPrefix(label) { outside.record($0.source) } }
        defer { observation.cancel() }
        let inside = await withComposeSandbox { _ in
            let heard = Recorder<String>()
            let own = EventLog.observe { if $0.source.hasPrefix(label) { heard.record($0.source) } }
            SignalEmitter(label: label + ".inside").send()
            await heard.wait(forCount: 1)
            own.cancel()
            return heard.values
        }
        SignalEmitter(label: label + ".outside").send()
        await outside.wait(forCount: 1)
        #expect(inside == [label + ".inside"])
        #expect(outside.values == [label + ".outside"])
    }

    @Test func aTestClockDrivesTimeInTheSandbox() async throws {
        try await withComposeSandbox(clock: .test) { sandbox in
            let clock = try #require(sandbox.testClock)
            #expect(Services.current.clock.base is TestClock<Duration>)
            let ticks = Recorder<ComposeClock.Instant>()
            let timer = Emitters.Timer(interval: .seconds(1))
            let subscription = timer += { ticks.record($0) }
            await clock.advance(by: .seconds(1)) { ticks.count == 1 }
            #expect(ticks.count == 1)
            subscription.cancel()
        }
    }

    /// Work sent to a thread outside the task tree runs in the process world; entering the
    /// captured sandbox there brings it back.
    @Test func workThatEscapesRunsOutsideUnlessItEntersTheSandbox() async {
        let seen = Recorder<String>()
        await withComposeSandbox(label: "escaping") { sandbox in
            let done = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                seen.record(ComposeSandbox.current?.label ?? "none")
                sandbox.run { seen.record(ComposeSandbox.current?.label ?? "none") }
                done.signal()
            }
            await withCheckedContinuation { continuation in
                DispatchQueue.global().async {
                    done.wait()
                    continuation.resume()
                }
            }
        }
        #expect(seen.values == ["none", "escaping"])
    }
}

/// Every test of this suite runs in a sandbox of its own, cases of parameterized tests too.
@Suite(.composeSandbox)
struct SandboxTraitTests {
    @Test(arguments: 0..<4)
    func eachCaseHasASandboxOfItsOwn(index: Int) {
        let sandbox = ComposeSandbox.current
        #expect(sandbox != nil)
        let card = Referred(SandboxTests.Card(id: 1, title: "\(index)"))
        #expect(card.value.title == "\(index)")
    }
}
