import ComposeEmitters
import ComposeMachinery
import ComposeStore
import ComposeTestSupport
import Synchronization
import Testing

@testable import ComposeRefs

/// An object that says whether its deinit has begun.
private final class Marked: Sendable {
    let deinitialized = Atomic<Bool>(false)

    deinit {
        deinitialized.store(true, ordering: .relaxed)
    }
}

private struct Specimen: Referable {
    let id: Int
    var count: Int
}

private struct Holder: AnyState {
    @Ref var specimen: Specimen
}

/// A store's subscriptions, its notifier and its ear on the entities it refers to hold it by a
/// `LightWeakReference`, which other threads ask while the store goes away.
@Suite struct LightWeakReferenceStressTests {
    /// Eight threads each make objects and publish a reference to them in 16 shared slots, 50,000
    /// times; each asks its own reference, then one in another slot, then lets its object go,
    /// which other threads may be asking about. An object alive is always found; any answer is
    /// an object alive and retained (its deinit not begun), or `nil`, never an object being
    /// deinitialized or freed (AddressSanitizer and ThreadSanitizer run this in CI).
    @Test func referencesAskedWhileTheirObjectsGoAwayNeverResurrectOne() async {
        let slots = LockedState([LightWeakReference<Marked>?](repeating: nil, count: 16))
        let wrong = Atomic<Int>(0)
        await onThreads(8) { thread in
            for round in 0..<50_000 {
                let slot = (thread &* 7 &+ round) % 16
                let object = Marked()
                let reference = LightWeakReference(object)
                slots.withLock { $0[slot] = reference }
                if reference.retainIfAlive() !== object { wrong.add(1, ordering: .relaxed) }
                if let other = slots.withLock({ $0[(slot &+ 5) % 16] }), let found = other.retainIfAlive() {
                    if found.deinitialized.load(ordering: .relaxed) { wrong.add(1, ordering: .relaxed) }
                }
                withExtendedLifetime(object) {}  // the object goes here, while others may be asking
            }
        }
        #expect(wrong.load(ordering: .relaxed) == 0)
        slots.withLock { slots in
            for reference in slots { #expect(reference?.retainIfAlive() == nil) }
        }
    }

    /// Four threads write one entity 20,000 times each while four others make stores that refer
    /// to it and observe it, then let them go (cancelling half of the subscriptions before, half
    /// after the store is gone), 5,000 times each. An entity calls its listeners after its lock,
    /// so it calls stores that are going away: a listener whose store is gone does nothing, a
    /// subscription cancelled after its store is harmless, nothing is read after it is freed
    /// (AddressSanitizer and ThreadSanitizer run this in CI), and in the end every store has
    /// gone away and stopped listening.
    @Test func storesGoingAwayWhileTheirEntityIsWrittenAreLeftAlone() async {
        let entity = Referred(Specimen(id: 1, count: 0))
        await onThreads(8) { thread in
            if thread < 4 {
                for round in 0..<20_000 { entity.value.count = round &* 4 &+ thread }
                return
            }
            for round in 0..<5_000 {
                var store: Store<Holder>? = Store<Holder>()
                store!.state.$specimen = entity
                let subscription = store!.observe(\.specimen.count) { _ in }
                if round.isMultiple(of: 2) { subscription.cancel() }
                store = nil
                subscription.cancel()
                #expect(subscription.isCancelled)
            }
        }
        #expect(entity.entry.listenerCount == 0)
    }
}
