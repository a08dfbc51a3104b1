import ComposeMachinery

/// A hook that sees which emitters and stores are subscribed to, for the component host's
/// check that a component observes only its own emitters and its descendants'.
///
/// The host sets ``auditor`` while it evaluates a component's `observers`; every base emitter
/// (and the store) calls ``check(_:)`` when it registers a handler. Debug builds only: release
/// builds pay nothing.
@usableFromInline
package enum RegistrationAudit {
    /// What the host calls with the identity of each object subscribed to.
    package typealias Auditor = Box<@Sendable (ObjectIdentifier) -> Void>

    /// The auditor, in a `Box` (see why there).
    @TaskLocal
    package static var auditor: Auditor?

    /// Tells the current auditor, if any, that `object` is being subscribed to.
    @usableFromInline
    package static func check(_ object: AnyObject) {
        #if DEBUG
        if let auditor { auditor.value(ObjectIdentifier(object)) }
        #endif
    }
}

/// Something a component owns whose subscriptions the audit can recognise: an emitter, a
/// store, a router. Its identities are the objects ``RegistrationAudit/check(_:)`` sees when
/// it is subscribed to.
package protocol SubscriptionSource {
    var subscriptionIdentities: [ObjectIdentifier] { get }
}

extension SignalEmitter: SubscriptionSource {
    package var subscriptionIdentities: [ObjectIdentifier] { [ObjectIdentifier(self)] }
}

extension ValueEmitter: SubscriptionSource {
    package var subscriptionIdentities: [ObjectIdentifier] { [ObjectIdentifier(self)] }
}
