/// Where a subscription was registered, kept by an operator that registers again later, on
/// whatever thread delivers to it: `flatMap` subscribing to each new inner emitter.
///
/// A later registration runs in the context of the operator's own subscription, not in the
/// delivering sender's: the scope that was current (whose ``HandlerContext`` the inner stages'
/// closures run inside, and which subscriptions made there join), and the gate of that
/// registration while it is under way (so that an end during it stops the inner stages too; once
/// it has returned, the gate takes no more, see ``RegistrationGate/finish()``).
struct RegistrationContext: Sendable {
    private let entry: ObservationScope.CurrentEntry?
    private let gate: RegistrationGate?

    /// The context of the registration under way on this task.
    static var current: RegistrationContext {
        RegistrationContext(entry: ObservationScope.currentEntry, gate: RegistrationGate.registering)
    }

    /// Runs `body` in this context, whatever the calling task's.
    func run<Result>(_ body: () -> Result) -> Result {
        ObservationScope.$currentEntry.withValue(entry) {
            RegistrationGate.$registering.withValue(gate, operation: body)
        }
    }
}
