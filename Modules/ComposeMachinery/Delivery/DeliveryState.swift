/// The state of ``DeliveryStateMachine``: whether a thread holds the delivery role, how many
/// values wait in the queue, whether the owner's snapshot of its handlers is stale, whether the
/// delivery was stopped, and whether a task is on its way to deliver on another executor. One
/// word, so a transition is one compare-and-exchange.
@frozen
@usableFromInline
package struct DeliveryState: Equatable, Sendable, CustomStringConvertible {
    /// Bit 0: the role is held. Bit 1: the snapshot is stale. Bit 2: stopped. Bit 3: a task is
    /// scheduled. The other bits: the number of values waiting.
    @usableFromInline
    package var rawValue: UInt

    /// The bits below the count.
    @usableFromInline
    static var flagBits: UInt { 4 }

    /// Nobody delivers, nothing waits.
    package static let idle = DeliveryState(rawValue: 0)

    @inlinable
    package init(rawValue: UInt) {
        self.rawValue = rawValue
    }

    @inlinable
    package init(
        isDelivering: Bool = false,
        pending: Int = 0,
        snapshotIsStale: Bool = false,
        isStopped: Bool = false,
        isScheduled: Bool = false
    ) {
        precondition(pending >= 0)
        rawValue =
            UInt(pending) << Self.flagBits | (isScheduled ? 8 : 0) | (isStopped ? 4 : 0) | (snapshotIsStale ? 2 : 0)
            | (isDelivering ? 1 : 0)
    }

    /// Whether a thread holds the delivery role.
    @inlinable
    package var isDelivering: Bool {
        get { rawValue & 1 != 0 }
        set { rawValue = newValue ? rawValue | 1 : rawValue & ~1 }
    }

    /// Whether the handlers changed since a holder of the role last published them: senders
    /// must take the lock (see ``DeliveryStateMachine/sendWithoutLock(_:)``). Owners that keep no
    /// snapshot (a ``Relay``) never set it.
    @inlinable
    package var snapshotIsStale: Bool {
        get { rawValue & 2 != 0 }
        set { rawValue = newValue ? rawValue | 2 : rawValue & ~2 }
    }

    /// Whether the delivery was stopped (``DeliveryStateMachine/stop(_:holderIsCurrentThread:)``):
    /// for good; nothing is queued or delivered afterwards. Emitters never stop.
    @inlinable
    package var isStopped: Bool {
        get { rawValue & 4 != 0 }
        set { rawValue = newValue ? rawValue | 4 : rawValue & ~4 }
    }

    /// Whether a task has been sent to deliver the waiting values on the owner's executor and has
    /// not begun (see ``DeliveryStateMachine/enqueuedForAnotherExecutor(_:)``).
    @inlinable
    package var isScheduled: Bool {
        get { rawValue & 8 != 0 }
        set { rawValue = newValue ? rawValue | 8 : rawValue & ~8 }
    }

    /// The number of values waiting in the queue.
    @inlinable
    package var pending: Int {
        get { Int(rawValue >> Self.flagBits) }
        set { rawValue = UInt(newValue) << Self.flagBits | rawValue & (1 << Self.flagBits - 1) }
    }

    @usableFromInline
    package var description: String {
        var parts: [String] =
            switch (isDelivering, pending) {
            case (false, 0): ["idle"]
            case (true, 0): ["delivering"]
            case (false, let pending): ["pending \(pending)"]
            case (true, let pending): ["delivering", "pending \(pending)"]
            }
        if snapshotIsStale { parts.append("snapshot stale") }
        if isStopped { parts.append("stopped") }
        if isScheduled { parts.append("scheduled") }
        return parts.joined(separator: ", ")
    }
}
