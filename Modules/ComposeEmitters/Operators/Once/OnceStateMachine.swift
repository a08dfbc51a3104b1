/// The pure logic of ``Emitters/Once``: the first value passes, and ends the subscription.
struct OnceStateMachine {
    enum Action: Equatable {
        /// Cancel the subscription upstream, then send the value.
        case cancelAndEmit
        case drop
    }

    private enum State {
        case waiting
        case fired
    }

    private var state = State.waiting

    mutating func received() -> Action {
        switch state {
        case .waiting:
            state = .fired
            return .cancelAndEmit
        case .fired:
            return .drop
        }
    }
}
