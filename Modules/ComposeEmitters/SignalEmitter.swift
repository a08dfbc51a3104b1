/// An emitter that carries only the fact that something happened.
///
/// ```swift
/// let printHello = SignalEmitter()
/// printHello += { print("Hello, world!") }
/// printHello.send()
/// ```
///
/// `SignalEmitter` is a reference type: a `let` in a component struct is shared by every copy of
/// the component. See ``Emitter`` for delivery order, threads and reentrancy.
public final class SignalEmitter: Emitter {
    public typealias Value = Void

    @usableFromInline
    let core: EmitterCore<Void>

    /// Creates a signal emitter.
    ///
    /// - Parameter label: How the emitter is named in the ``EventLog``.
    public init(label: String? = nil) {
        core = EmitterCore(label: label, remembersValues: false)
    }

    /// Sends a signal to every subscriber.
    ///
    /// - Complexity: O(*n*) in the number of subscribers; no allocation.
    @inlinable
    public func send() {
        core.send(())
    }

    public func register(_ handler: @escaping @Sendable (Value) -> Void) -> EmitterSubscription {
        RegistrationAudit.check(self)
        return core.register(handler)
    }

    /// The number of active subscriptions.
    public var subscriberCount: Int {
        core.subscriberCount
    }

    /// The label given at creation, if any.
    public var label: String? {
        core.label
    }
}
