/// A change of a store's state, as ``Store/didChange`` sends it.
public struct StateChange<State: Sendable>: Sendable {
    /// The state before the write.
    public let old: State
    /// The state after the write.
    public let new: State

    /// The change from `old` to `new`.
    public init(old: State, new: State) {
        self.old = old
        self.new = new
    }

    /// Whether the value at `keyPath` differs between the two states.
    public func changed<Value: Equatable>(_ keyPath: KeyPath<State, Value>) -> Bool {
        old[keyPath: keyPath] != new[keyPath: keyPath]
    }
}

extension StateChange: Equatable where State: Equatable {}
