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
///
/// The relays an operator makes for a closure written on an actor (a main-actor `map`) during
/// the registration join the gate too (``registering``), so closing it stops them as well.
@usableFromInline
package final class RegistrationGate: Sendable {
    private let open = Atomic<Bool>(true)
    /// Whether the gate was closed, and the relays it stops: the handler's, if it has one, and
    /// those of the operators' closures on actors.
    private let relays = LockedState<(closed: Bool, finished: Bool, stops: [@Sendable () -> Void])>((false, false, []))

    /// The gate of the registration under way on this task, if any: operators add the relays
    /// they make to it.
    @TaskLocal package static var registering: RegistrationGate?

    init<Value>(stopping relay: Relay<Value>?) {
        if let relay { relays.withLock { $0.stops.append { relay.stop() } } }
    }

    /// Makes `relay` stop when the gate of the registration under way closes, if there is one.
    @usableFromInline
    package static func stopWithCurrent<Event>(_ relay: Relay<Event>) {
        registering?.stopping(relay)
    }

    /// Makes `relay` stop when the gate closes; at once if it has closed; not at all once the
    /// registration has returned (``finish()``), when the subscription it returned answers for it.
    func stopping<Event>(_ relay: Relay<Event>) {
        let closed = relays.withLock { state in
            if !state.closed, !state.finished { state.stops.append { relay.stop() } }
            return state.closed
        }
        if closed { relay.stop() }
    }

    /// The registration has returned its subscription, which the scope keeps (and cancels as it
    /// ends): the relays it stops are released, and a relay made later by one of its operators
    /// (`flatMap` following a new inner emitter) no longer joins it.
    func finish() {
        let stops = relays.withLock { state in
            state.finished = true
            return state.closed ? [] : state.stops
        }
        _ = consume stops  // released outside the lock
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
        let stops = relays.withLock { state in
            state.closed = true
            return state.stops
        }
        for stop in stops { stop() }
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
