import ComposeTestSupport
import Synchronization
import Testing

@testable import ComposeRefs

/// Models of one test each (tests run in parallel): their entities are the only ones in their
/// registries.
private struct StressCard: Referable {
    let id: Int
    var round: Int
}

private struct KeptCard: Referable {
    let id: Int
    var round: Int
}

/// The registry of live entities finds them without keeping them alive (an unretained reference
/// each, removed by the entity's deinit), so its lookups race the last release of what they find.
@Suite struct RefRegistryStressTests {
    /// Eight threads take and drop the entities of eight ids, 50,000 times each: most lookups
    /// meet an entity whose last holder is letting go on another thread. A lookup either gets the
    /// entity alive (it reads its id and value) or, when the entity is already going away, makes
    /// a new one; it never gets one that is being deinitialized or freed (AddressSanitizer and
    /// ThreadSanitizer run this in CI). When every holder is gone, the registry is empty.
    @Test func lookupsRacingTheLastReleaseNeverResurrectAnEntity() async {
        let wrongEntities = Atomic<Int>(0)
        await onThreads(8) { thread in
            for round in 0..<50_000 {
                let id = (thread &+ round) % 8
                let held = Referred(StressCard(id: id, round: round))
                let again = Ref(held)  // a second holder of the same entity, then both go
                if held.value.id != id || again.wrappedValue.id != id { wrongEntities.add(1, ordering: .relaxed) }
            }
        }
        #expect(wrongEntities.load(ordering: .relaxed) == 0)
        #expect(RefRegistry<StressCard>.shared.count == 0)
    }

    /// Holders kept across threads: an entity that someone holds is found by every lookup of its
    /// id, and is one entity (a write through any holder is read through all of them).
    @Test func aHeldEntityIsFoundByEveryLookup() async {
        let kept = (0..<8).map { Referred(KeptCard(id: 100 + $0, round: 0)) }
        let strangers = Atomic<Int>(0)
        await onThreads(8) { thread in
            for round in 0..<20_000 {
                let id = 100 + (thread &+ round) % 8
                guard let live = RefRegistry<KeptCard>.liveEntry(for: id) else {
                    strangers.add(1, ordering: .relaxed)
                    continue
                }
                if live !== kept[id - 100].entry { strangers.add(1, ordering: .relaxed) }
            }
        }
        #expect(strangers.load(ordering: .relaxed) == 0)
        #expect(RefRegistry<KeptCard>.shared.count == 8)
    }
}
