import Synchronization

/// A flag one thread raises and others look at.
public final class Flag: Sendable {
    private let raised = Atomic<Bool>(false)

    public init() {}

    public func raise() { raised.store(true, ordering: .releasing) }

    public var isRaised: Bool { raised.load(ordering: .acquiring) }
}
