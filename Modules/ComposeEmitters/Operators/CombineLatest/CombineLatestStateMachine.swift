/// The pure logic of ``Emitters/CombineLatest``: the latest value of each side, and a pair once
/// both have sent.
struct CombineLatestStateMachine<First, Second> {
    enum Action {
        case none
        /// Send the pair of latest values.
        case emit(First, Second)
    }

    private enum State {
        /// At most one side has sent: its latest value.
        case waiting(First?, Second?)
        /// Both have sent: each one's latest value.
        case both(First, Second)
    }

    private var state = State.waiting(nil, nil)

    mutating func receivedFirst(_ value: First) -> Action {
        switch state {
        case .waiting(_, let second?), .both(_, let second):
            state = .both(value, second)
            return .emit(value, second)
        case .waiting(_, nil):
            state = .waiting(value, nil)
            return .none
        }
    }

    mutating func receivedSecond(_ value: Second) -> Action {
        switch state {
        case .waiting(let first?, _), .both(let first, _):
            state = .both(first, value)
            return .emit(first, value)
        case .waiting(nil, _):
            state = .waiting(nil, value)
            return .none
        }
    }
}
