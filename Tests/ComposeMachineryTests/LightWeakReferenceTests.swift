import ComposeMachinery
import Synchronization
import Testing

/// What happened to the ``Tracked`` objects of one test.
private final class Deinits: Sendable {
    let count = Atomic<Int>(0)
    /// What a reference to the object returned when asked from the object's own deinit.
    let foundDuringDeinit = Mutex<Bool?>(nil)
}

/// An object that reports its deinit, and can ask a reference to itself while it runs.
private final class Tracked: Sendable {
    let deinits: Deinits
    let selfReference = Mutex<LightWeakReference<Tracked>?>(nil)

    init(_ deinits: Deinits) {
        self.deinits = deinits
    }

    deinit {
        deinits.count.add(1, ordering: .relaxed)
        if let reference = selfReference.withLock({ $0 }) {
            let found = reference.retainIfAlive() != nil
            deinits.foundDuringDeinit.withLock { $0 = found }
        }
    }
}

/// The reference to a store that its subscriptions, its notifier and its ear on referenced
/// entities hold: weak, without the side table a `weak` reference gives its object.
@Suite struct LightWeakReferenceTests {
    @Test func aLiveObjectComesBackRetained() {
        let deinits = Deinits()
        var object: Tracked? = Tracked(deinits)
        let reference = LightWeakReference(object!)
        let found = reference.retainIfAlive()
        #expect(found === object)
        // What it returned keeps the object alive once its first holder lets go.
        object = nil
        #expect(deinits.count.load(ordering: .relaxed) == 0)
        #expect(reference.retainIfAlive() === found)
    }

    @Test func aReferenceDoesNotKeepItsObjectAlive() {
        let deinits = Deinits()
        var object: Tracked? = Tracked(deinits)
        let reference = LightWeakReference(object!)
        object = nil
        #expect(deinits.count.load(ordering: .relaxed) == 1)
        #expect(reference.retainIfAlive() == nil)
        // Asked again, and through a copy: still gone, and nothing is read but the counts the
        // reference keeps allocated (AddressSanitizer runs this in CI).
        let copy = reference
        #expect(copy.retainIfAlive() == nil)
    }

    @Test func anObjectBeingDeinitializedIsNotResurrected() {
        let deinits = Deinits()
        var object: Tracked? = Tracked(deinits)
        let reference = LightWeakReference(object!)
        object!.selfReference.withLock { $0 = reference }
        object = nil
        #expect(deinits.count.load(ordering: .relaxed) == 1)
        #expect(deinits.foundDuringDeinit.withLock { $0 } == false)
        #expect(reference.retainIfAlive() == nil)
    }
}
