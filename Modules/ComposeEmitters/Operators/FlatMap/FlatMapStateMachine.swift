/// The pure logic of ``Emitters/FlatMap``: which inner emitter is followed. Each outer value
/// starts a new generation; values of an older inner emitter (already on their way when it was
/// replaced) are dropped.
struct FlatMapStateMachine {
    enum OuterAction: Equatable {
        /// Subscribe to the new inner emitter, tagging its values with `generation` (the
        /// subscription to the previous one is replaced, and so cancelled).
        case follow(generation: UInt64)
    }

    enum InnerAction: Equatable {
        case drop
        case emit
    }

    private enum State {
        /// No outer value yet.
        case waitingForOuter
        /// Following the inner emitter of `generation`.
        case following(generation: UInt64)
    }

    private var state = State.waitingForOuter

    mutating func receivedOuter() -> OuterAction {
        let next: UInt64 =
            switch state {
            case .waitingForOuter: 1
            case .following(let generation): generation &+ 1
            }
        state = .following(generation: next)
        return .follow(generation: next)
    }

    func receivedInner(generation: UInt64) -> InnerAction {
        guard case .following(let current) = state, current == generation else { return .drop }
        return .emit
    }
}
