import Synchronization

/// The atomic word that holds a delivery's ``DeliveryState``, changed only by the transitions of
/// ``DeliveryStateMachine``.
///
/// Every transition is applied with a sequentially consistent compare-and-exchange: giving the
/// role up is a release of everything the holder did while delivering, taking it an acquire of
/// that, and the single total order of these operations is what the protocol's proofs rely on
/// (see ``DeliveryStateMachine``, and the retired buffers of the emitters' registry).
@usableFromInline
package struct DeliveryWord: ~Copyable, Sendable {
    @usableFromInline
    let word: Atomic<UInt>

    @inlinable
    package init() {
        word = Atomic(0)  // idle
    }

    /// Applies `transition` atomically and returns its action. A transition that changes nothing
    /// is not written.
    @inlinable
    @discardableResult
    package func apply(_ transition: (inout DeliveryState) -> DeliveryAction) -> DeliveryAction {
        var current = word.load(ordering: .sequentiallyConsistent)
        while true {
            var state = DeliveryState(rawValue: current)
            let action = transition(&state)
            if state.rawValue == current { return action }
            let (exchanged, original) = word.compareExchange(
                expected: current,
                desired: state.rawValue,
                ordering: .sequentiallyConsistent
            )
            if exchanged { return action }
            current = original
        }
    }

    /// The state now.
    @inlinable
    package var state: DeliveryState {
        DeliveryState(rawValue: word.load(ordering: .sequentiallyConsistent))
    }

    /// Whether a thread holds the delivery role now (an acquiring load: a thread that finds the
    /// role free is ordered after everything its last holder did while delivering).
    @inlinable
    package var isDelivering: Bool {
        DeliveryState(rawValue: word.load(ordering: .acquiring)).isDelivering
    }
}
