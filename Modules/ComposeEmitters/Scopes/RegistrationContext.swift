/// Where a subscription was registered, kept by an operator that registers again later, on
/// whatever thread delivers to it: `flatMap` subscribing to each new inner emitter.
///
/// A later registration runs as the operator's own subscription was made, not as the code that
/// delivers the value: in the scope that was current (whose ``HandlerContext`` the inner stages'
/// closures run inside, and which an inner registration joins, so that it is never registered
/// once that scope has ended and an end during it stops it, see
/// ``ObservationScope/joiningCurrent(_:_:)``), as the same ``CodeOwner``, under the same
/// ownership audit (``RegistrationAudit``), and outside any other registration's gate.
struct RegistrationContext: Sendable {
    private let entry: ObservationScope.CurrentEntry?
    private let auditor: RegistrationAudit.Auditor?
    private let owner: WeakOwner?

    /// The owner, held weakly: a subscription does not keep the component that made it.
    private final class WeakOwner: @unchecked Sendable {  // Immutable after init.
        weak var value: (any AnyObject & Sendable)?
        init(_ value: any AnyObject & Sendable) { self.value = value }
    }

    /// The context of the code running on this task.
    static var current: RegistrationContext {
        RegistrationContext(
            entry: ObservationScope.currentEntry, auditor: RegistrationAudit.auditor,
            owner: CodeOwner.current.map(WeakOwner.init))
    }

    /// Runs `body` in this context, whatever the calling task's.
    func run<Result>(_ body: () -> Result) -> Result {
        ObservationScope.$currentEntry.withValue(entry) {
            RegistrationGate.$registering.withValue(nil) {
                RegistrationAudit.$auditor.withValue(auditor) {
                    CodeOwner.$current.withValue(owner?.value, operation: body)
                }
            }
        }
    }

    /// Registers `handler` with `register` in this context: joining its scope, if it has one, as
    /// every way of subscribing does.
    func register<Value: Sendable>(
        _ handler: @escaping @Sendable (Value) -> Void,
        with register: (@escaping @Sendable (Value) -> Void) -> EmitterSubscription
    ) -> EmitterSubscription {
        run {
            ObservationScope.joiningCurrent(IsolatedSubscriber(handler: handler)) { subscriber in
                register(subscriber.handler)
            }
        }
    }
}
