import Synchronization

/// The atomic word of a ``DeliveryStateMachine``, and the loop that applies its transitions.
@usableFromInline
package struct DeliveryWord: ~Copyable {
    @usableFromInline
    let word = Atomic<UInt>(0)

    @inlinable
    package init() {}

    /// Applies `transition` to the current word until its write succeeds; waits (spinning, then
    /// yielding the thread) while another thread holds the lock.
    ///
    /// Acquiring: what the thread that wrote the word last did before its write is visible here.
    /// Releasing: what this thread did before is visible to the next thread that reads it.
    @inlinable
    package func apply(_ transition: (DeliveryState) -> (DeliveryState, DeliveryAction)) -> (DeliveryState, DeliveryAction) {
        var current = DeliveryState(rawValue: word.load(ordering: .acquiring))
        var backoff = Backoff()
        while true {
            let (next, action) = transition(current)
            if action == .wait {
                backoff.pause()
                current = DeliveryState(rawValue: word.load(ordering: .acquiring))
                continue
            }
            if next == current { return (next, action) }
            let (exchanged, original) = word.compareExchange(
                expected: current.rawValue,
                desired: next.rawValue,
                ordering: .acquiringAndReleasing
            )
            if exchanged { return (next, action) }
            current = DeliveryState(rawValue: original)
        }
    }

    /// Writes `state` while this thread holds the lock: nobody else changes the word then.
    @inlinable
    package func store(_ state: DeliveryState) {
        word.store(state.rawValue, ordering: .releasing)
    }

    /// The word now, for inspection.
    @inlinable
    package var current: DeliveryState {
        DeliveryState(rawValue: word.load(ordering: .acquiring))
    }
}

/// Waiting for another thread's few instructions under a lock bit: spin a little, then yield
/// the processor so a preempted holder can run.
@usableFromInline
package struct Backoff {
    @usableFromInline var spins = 0

    @inlinable
    package init() {}

    @inlinable
    package mutating func pause() {
        spins += 1
        if spins < 32 { return }
        sched_yield()
    }
}
