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

    /// Applies `transition`, which runs under the owner's lock, atomically, and returns its
    /// action.
    ///
    /// For an owner that never applies ``DeliveryStateMachine/sendWithoutLock(_:)`` (a ``Relay``
    /// whose owner does not take the role under a lock of its own), only a thread holding its
    /// lock can change the word from the idle state: ``DeliveryStateMachine/claim(_:)``
    /// needs values waiting, which only a lock holder can add, and ``DeliveryStateMachine/finish(_:)`` and ``DeliveryStateMachine/tookNext(_:)``
    /// need the role. So a transition from idle, under the lock, is written with a plain store
    /// (the common case: a send that finds nobody delivering), and any other with
    /// ``apply(_:)``'s compare-and-exchange. An owner whose senders may take the role without the
    /// lock uses ``apply(_:)`` for every transition.
    ///
    /// - Precondition: The caller holds the lock that guards the queue this word counts, and no
    ///   thread changes the word from idle without it.
    @inlinable
    @discardableResult
    package func applyHoldingLock(_ transition: (inout DeliveryState) -> DeliveryAction) -> DeliveryAction {
        let current = word.load(ordering: .acquiring)
        guard current == 0 else { return apply(transition) }
        var state = DeliveryState(rawValue: 0)
        let action = transition(&state)
        if state.rawValue != current { word.store(state.rawValue, ordering: .releasing) }
        return action
    }

    /// Gives the delivery role up if nothing waits: ``DeliveryStateMachine/finish(_:)`` from its
    /// commonest state ("delivering, nothing waits"), as one compare-and-exchange that does not
    /// load the word first.
    ///
    /// - Returns: Whether the role was given up. `false` means values wait: the caller still
    ///   holds the role and applies ``DeliveryStateMachine/finish(_:)``, which hands it the next.
    @inlinable
    package func giveUpIfNothingWaits() -> Bool {
        word.compareExchange(
            expected: DeliveryState(isDelivering: true).rawValue,
            desired: DeliveryState().rawValue,
            ordering: .sequentiallyConsistent
        ).exchanged
    }

    /// ``DeliveryStateMachine/sendWithoutLock(_:)``, as one compare-and-exchange from idle that
    /// does not load the word first.
    ///
    /// - Returns: Whether the caller took the role (``DeliveryAction/deliverNow``); `false` means
    ///   ``DeliveryAction/takeTheLock``, and the word is unchanged.
    @inlinable
    package func sendWithoutLock() -> Bool {
        word.compareExchange(
            expected: DeliveryState().rawValue,
            desired: DeliveryState(isDelivering: true).rawValue,
            ordering: .sequentiallyConsistent
        ).exchanged
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
