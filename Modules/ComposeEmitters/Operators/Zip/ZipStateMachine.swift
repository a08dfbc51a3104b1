import DequeModule

/// The pure logic of ``Emitters/Zip``: the values of one side that wait for their partners.
///
/// At most one side has values waiting: a value that finds its partner waiting is sent with it at
/// once.
struct ZipStateMachine<First, Second> {
    enum Action {
        case none
        /// Send the pair.
        case emit(First, Second)
    }

    private enum State {
        /// No value waits.
        case idle
        /// The first side ran ahead: its values, oldest first.
        case firstAhead(Deque<First>)
        /// The second side ran ahead.
        case secondAhead(Deque<Second>)
    }

    private var state = State.idle

    mutating func receivedFirst(_ value: First) -> Action {
        switch state {
        case .idle:
            state = .firstAhead([value])
            return .none
        case .firstAhead(var waiting):
            state = .idle  // no second reference while it grows
            waiting.append(value)
            state = .firstAhead(waiting)
            return .none
        case .secondAhead(var waiting):
            state = .idle
            let partner = waiting.removeFirst()
            if !waiting.isEmpty { state = .secondAhead(waiting) }
            return .emit(value, partner)
        }
    }

    mutating func receivedSecond(_ value: Second) -> Action {
        switch state {
        case .idle:
            state = .secondAhead([value])
            return .none
        case .secondAhead(var waiting):
            state = .idle
            waiting.append(value)
            state = .secondAhead(waiting)
            return .none
        case .firstAhead(var waiting):
            state = .idle
            let partner = waiting.removeFirst()
            if !waiting.isEmpty { state = .firstAhead(waiting) }
            return .emit(partner, value)
        }
    }
}
