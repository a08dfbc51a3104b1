/// The pure logic of ``Emitters/DropUntil``: values are dropped until the trigger sends, then
/// passed on.
struct DropUntilStateMachine {
    enum ValueAction: Equatable {
        case drop
        case emit
    }

    enum TriggerAction: Equatable {
        case none
        /// The trigger did its work: cancel the subscription to it.
        case cancelTrigger
    }

    private enum State {
        case dropping
        case passing
    }

    private var state = State.dropping

    mutating func receivedValue() -> ValueAction {
        switch state {
        case .dropping: .drop
        case .passing: .emit
        }
    }

    mutating func triggered() -> TriggerAction {
        switch state {
        case .dropping:
            state = .passing
            return .cancelTrigger
        case .passing:
            return .none
        }
    }
}
