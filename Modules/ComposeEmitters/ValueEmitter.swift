import ComposeMachinery

/// An emitter that carries a value.
///
/// ```swift
/// let printMessage = ValueEmitter<String>()
/// printMessage += { message in print(message) }
/// printMessage += { message in print("Another subscriber says:", message) }
/// printMessage.send("A simple message.")
/// ```
///
/// `ValueEmitter` is a reference type: a `let` in a component struct is shared by every copy of
/// the component. It remembers the last value it sent (``lastValue``), which ``withCurrent()``
/// and `~+=` use. See ``Emitter`` for delivery order, threads and reentrancy.
public final class ValueEmitter<Value: Sendable>: Emitter {
    @usableFromInline
    let core: EmitterCore<Value>
    /// Made the first time Observation reads ``lastValue``: until then a send checks one word.
    @usableFromInline
    let lastValueSignal = LazyReference<ObservationSignal>()

    /// Creates a value emitter.
    ///
    /// - Parameters:
    ///   - label: How the emitter is named in the ``EventLog``.
    ///   - redacted: Whether its values are private (a password, a token): the event log shows
    ///     them as ``EventLog/RedactedValue``, and a session recording does not write them.
    public init(label: String? = nil, redacted: Bool = false) {
        core = EmitterCore(label: label, remembersValues: true, isRedacted: redacted)
    }

    /// Sends `value` to every subscriber.
    ///
    /// - Complexity: O(*n*) in the number of subscribers; no allocation.
    @inlinable
    public func send(_ value: Value) {
        core.send(value)
        lastValueSignal.ifMade?.changed()
    }

    /// The value most recently sent, or `nil` if nothing was sent yet.
    ///
    /// Observable: a SwiftUI view or `withObservationTracking` that reads it is told of every send.
    public var lastValue: Value? {
        lastValueSignal.get(orMake: ObservationSignal.init).access()
        return core.lastSent
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

    /// Whether its values are private: logged as ``EventLog/RedactedValue``.
    public var isRedacted: Bool {
        core.isRedacted
    }
}
