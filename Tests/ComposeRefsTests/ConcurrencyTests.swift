import ComposeEmitters
import ComposeMachinery
import ComposeStore
import ComposeTestSupport
import Dispatch
import Foundation
import Testing

@testable import ComposeRefs

@Suite struct ConcurrencyTests {
    @Test func concurrentWritesLastWriteWinsAndNoValueIsTorn() async {
        // Every writer writes a card whose title and count agree; a torn value would not.
        let referred = Referred(Card.fresh("0"))
        let stores = (0..<4).map { _ in cardStore(referred) }
        let torn = Recorder<String>()
        for store in stores {
            store.observe(\.card) { card in
                if card.title != "\(card.count)" { torn.record(card.title) }
            }
        }
        DispatchQueue.concurrentPerform(iterations: 8) { writer in
            for step in 0..<500 {
                let count = writer * 1_000 + step
                stores[writer % stores.count].card = Card(id: referred.id, title: "\(count)", count: count)
                let read = stores[(writer + 1) % stores.count].card
                if read.title != "\(read.count)" { torn.record(read.title) }
            }
        }
        #expect(torn.values.isEmpty)
        // Every store reads the one value that won.
        let final = referred.value
        #expect(stores.allSatisfy { $0.card == final })
        #expect(final.count % 1_000 == 499)  // some writer's last write
    }

    /// Four threads increment one entity 500 times each: a store that listens to it hears every
    /// write once, in the order the writes committed, each with the value it committed (what its
    /// commits capture for a `StoreTester`).
    @Test func aStoreHearsAnEntitysWritesInTheirOrderWithTheirValues() async {
        let referred = Referred(Card.fresh("counted"))
        let store = cardStore(referred)
        let stopCapturing = store.storage.captureReferencedValues()
        let counts = Recorder<Int>()
        let subscription = store.didChange.register { change in
            let world = ComposeWorld(label: "committed")
            counts.record(store.storage.detachedCopy(of: change.new, in: world, values: change.referencedValues).card.count)
        }
        await onThreads(4) { _ in
            for _ in 0..<500 { referred.mutate { $0.count += 1 } }
        }
        #expect(counts.values == Array(1...2_000))
        subscription.cancel()
        stopCapturing()
    }

    @Test func concurrentMutationsLoseNothing() {
        let referred = Referred(Card.fresh())
        let store = cardStore(referred)
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<1_000 { referred.mutate { $0.count += 1 } }
        }
        #expect(referred.value.count == 8_000)
        #expect(store.card.count == 8_000)
    }

    @Test func refsCreatedAtOnceShareOneEntity() {
        let card = Card.fresh()
        let handles = LockedBox<[Referred<Card>]>([])
        DispatchQueue.concurrentPerform(iterations: 64) { index in
            let ref = Ref(wrappedValue: Card(id: card.id, title: "\(index)"))
            handles.mutate { $0.append(ref.projectedValue) }
        }
        #expect(Set(handles.value).count == 1)
    }

    @Test func creatingAndDroppingOneIDFromManyThreads() {
        let id = Card.fresh().id
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for step in 0..<5_000 {
                let ref = Ref(wrappedValue: Card(id: id, title: "\(thread)-\(step)"))
                _ = ref.wrappedValue
            }
        }
        #expect(RefRegistry<Card>.liveEntry(for: id) == nil)
    }

    @Test func storesOnManyThreadsHearTheLastValue() async {
        let referred = Referred(Card.fresh())
        let stores = (0..<16).map { _ in cardStore(referred) }
        let lastHeard = stores.map { _ in LockedBox(-1) }
        for (store, heard) in zip(stores, lastHeard) {
            store.observe(\.card.count) { count in heard.mutate { $0 = count } }
        }
        DispatchQueue.concurrentPerform(iterations: stores.count) { index in
            for step in 1...200 { stores[index].card.count = step }
        }
        #expect(await eventually { lastHeard.allSatisfy { $0.value == 200 } })
    }

    /// Every run of an entity's `mutate` is overlapped by another thread's `mutate` of it, made
    /// to: the body starts it and waits for it. The first `optimisticRuns` runs lose; the next is
    /// irrevocable, the other write waits for its commit (the body gives up waiting after 50 ms)
    /// and then lands on it.
    @Test(.timeLimit(.minutes(5)))
    func anIrrevocableRunKeepsOtherWritersOutUntilItCommits() async {
        let referred = Referred(Card.fresh())
        let runs = LockedBox(0)
        let writers = DispatchGroup()
        await onThreads(1) { _ in
            referred.mutate { card in
                runs.mutate { $0 += 1 }
                guard runs.value <= 100 else { return card.title += "!" }  // a livelock fails the count
                let written = DispatchSemaphore(value: 0)
                writers.enter()
                startThread {
                    referred.mutate { $0.title += "w" }
                    written.signal()
                    writers.leave()
                }
                let irrevocable = runs.value > CommitGate.optimisticRuns
                _ = written.wait(timeout: .now() + (irrevocable ? .milliseconds(50) : .seconds(20)))
                card.title += "!"
            }
            writers.wait()
        }
        #expect(runs.value == CommitGate.optimisticRuns + 1)
        #expect(referred.value.title == "wwww!w")
    }

    /// A slow `Referred.mutate` against a writer that never pauses commits within a bounded
    /// number of runs (the same gate as a store's `mutate`; see `CommitGate`).
    @Test(.timeLimit(.minutes(5)))
    func aSlowMutateCommitsUnderContention() async {
        let referred = Referred(Card.fresh())
        let runs = LockedBox(0)
        let done = LockedBox(false)
        await onThreads(2) { thread in
            if thread == 0 {
                for _ in 0..<3 {
                    referred.mutate { card in
                        runs.mutate { $0 += 1 }
                        usleep(2_000)
                        card.count += 1
                    }
                }
                done.mutate { $0 = true }
            } else {
                var step = 0
                let deadline = ContinuousClock.now + .seconds(10)
                while !done.value, ContinuousClock.now < deadline {
                    step += 1
                    referred.mutate { $0.title = "\(step)" }
                }
            }
        }
        #expect(referred.value.count == 3)
        #expect(runs.value <= 3 * (CommitGate.optimisticRuns + 1))
    }
}
