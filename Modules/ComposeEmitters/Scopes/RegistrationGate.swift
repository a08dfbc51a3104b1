import ComposeMachinery
import Synchronization

/// What an ``ObservationScope`` holds for a subscription while it is being registered, before
/// the registration has returned the subscription: closing the gate keeps the handler from
/// being called, as cancelling the subscription would.
///
/// A scope's `end()` closes the gates of the registrations under way and waits for none of them.
/// Closing one stops the relay of a handler written on an actor (``Relay/stop()``: once it has
/// returned, the handler is not called again); a nonisolated handler is registered behind the
/// gate, which it looks at before each call (a send that starts after the close does not reach
/// it). The registration, once it returns, finds the scope ended and cancels its subscription.
@usableFromInline
package final class RegistrationGate: Sendable {
    private let open = Atomic<Bool>(true)
    /// Stops the relay of a handler written on an actor; `nil` for a nonisolated handler.
    private let stopRelay: (@Sendable () -> Void)?

    init<Value>(stopping relay: Relay<Value>?) {
        if let relay {
            stopRelay = { relay.stop() }
        } else {
            stopRelay = nil
        }
    }

    /// Whether the gate lets the handler be called.
    var isOpen: Bool {
        open.load(ordering: .acquiring)
    }

    /// Keeps the handler from being called: once this has returned, a handler on an actor is not
    /// called again (unless this is called from that handler, whose call in progress is the last),
    /// and no send that starts afterwards reaches a nonisolated one. Every call waits in the same way.
    func close() {
        open.store(false, ordering: .releasing)
        stopRelay?()
    }
}

extension IsolatedSubscriber {
    /// This subscriber behind `gate`: a nonisolated handler looks at the gate before each call;
    /// the relay of an isolated one is what the gate stops, so it stays as it is.
    func gated(by gate: RegistrationGate) -> IsolatedSubscriber {
        guard relay == nil else { return self }
        let handler = self.handler
        return IsolatedSubscriber(handler: { value in
            if gate.isOpen { handler(value) }
        })
    }
}
