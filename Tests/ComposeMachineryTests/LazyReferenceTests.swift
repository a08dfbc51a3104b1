import ComposeMachinery
import ComposeTestSupport
import Synchronization
import Testing

/// How many ``Part``s were made and how many went away.
private final class Counts: Sendable {
    let made = Atomic<Int>(0)
    let gone = Atomic<Int>(0)
}

private final class Part: Sendable {
    let counts: Counts

    init(_ counts: Counts) {
        self.counts = counts
        counts.made.add(1, ordering: .relaxed)
    }

    deinit {
        counts.gone.add(1, ordering: .relaxed)
    }
}

/// What a store is to its lazily made parts.
private final class Owner: Sendable {
    let part = LazyReference<Part>()
}

/// The reference a store makes its notifier, change emitters and queues with on first use.
@Suite struct LazyReferenceTests {
    @Test func nothingIsMadeUntilAskedAndThenAlwaysTheSameObject() {
        let counts = Counts()
        var owner: Owner? = Owner()
        #expect(owner!.part.ifMade == nil)
        var first: Part? = owner!.part.get { Part(counts) }
        let second = owner!.part.get { Part(counts) }
        #expect(first === second)
        #expect(owner!.part.ifMade === second)
        #expect(counts.made.load(ordering: .relaxed) == 1)
        // Kept by its owner, then released once: neither kept for ever nor released twice.
        first = nil
        #expect(counts.gone.load(ordering: .relaxed) == 0)
        owner = nil
        withExtendedLifetime(second) {
            #expect(counts.gone.load(ordering: .relaxed) == 0)
        }
    }

    /// `withObject` lends the kept object without retaining it: it makes it once, hands the
    /// same object every time, returns what its body returns, and the object goes away with its
    /// owner, released exactly once.
    @Test func withObjectMakesOnceAndLendsTheKeptObject() {
        let counts = Counts()
        var owner: Owner? = Owner()
        var makes = 0
        func make() -> Part {
            makes += 1
            return Part(counts)
        }
        let first = owner!.part.withObject(orMake: make) { ObjectIdentifier($0) }
        let second = owner!.part.withObject(orMake: make) { ObjectIdentifier($0) }
        #expect(makes == 1)
        #expect(first == second)
        #expect(owner!.part.ifMade.map(ObjectIdentifier.init) == first)
        owner = nil
        #expect(counts.made.load(ordering: .relaxed) == 1)
        #expect(counts.gone.load(ordering: .relaxed) == 1)
    }

    /// Threads asking a fresh reference at once, by `get` and by `withObject`, all get the one
    /// object published first; the objects the others made (each takes a few microseconds to
    /// make, so that they race) are released, and so is the published one when its owner goes
    /// away.
    @Test func threadsAskingAtOnceAllGetTheSameObject() async {
        let counts = Counts()
        @Sendable func make() -> Part {
            let start = ContinuousClock.now
            while ContinuousClock.now - start < .microseconds(20) {}
            return Part(counts)
        }
        for _ in 0..<200 {
            let owner = Owner()
            let seen = LockedBox<Set<ObjectIdentifier>>([])
            let start = Barrier(parties: 4)
            await onThreads(4) { thread in
                start.arriveAndWait()
                let found =
                    thread.isMultiple(of: 2)
                    ? ObjectIdentifier(owner.part.get(orMake: make))
                    : owner.part.withObject(orMake: make) { ObjectIdentifier($0) }
                seen.mutate { _ = $0.insert(found) }
            }
            #expect(seen.value.count == 1)
            #expect(seen.value.first == owner.part.ifMade.map(ObjectIdentifier.init))
        }
        // The threads' closures, which hold the last owner, may be released just after they
        // return: wait for it (a second at most), rather than for a fixed time.
        let deadline = ContinuousClock.now + .seconds(1)
        while counts.gone.load(ordering: .relaxed) < counts.made.load(ordering: .relaxed), ContinuousClock.now < deadline {
            await Task.yield()
        }
        #expect(counts.gone.load(ordering: .relaxed) == counts.made.load(ordering: .relaxed))
    }
}
