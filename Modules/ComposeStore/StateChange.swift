/// A change of a store's state, as ``Store/didChange`` sends it.
public struct StateChange<State: Sendable>: Sendable {
    /// The state before the write.
    public let old: State
    /// The state after the write.
    public let new: State

    /// What `new`'s references (`@Ref`) read at the commit, when the store captured them
    /// (ComposeTesting's `StoreTester` asks it to); empty otherwise. `new` itself reads its
    /// references' current values.
    @usableFromInline package let referencedValues: ReferencedValues

    /// The change from `old` to `new`.
    public init(old: State, new: State) {
        self.old = old
        self.new = new
        self.referencedValues = ReferencedValues()
    }

    @usableFromInline
    package init(old: State, new: State, referencedValues: ReferencedValues) {
        self.old = old
        self.new = new
        self.referencedValues = referencedValues
    }

    /// Whether the value at `keyPath` differs between the two states.
    public func changed<Value: Equatable>(_ keyPath: KeyPath<State, Value>) -> Bool {
        old[keyPath: keyPath] != new[keyPath: keyPath]
    }
}

extension StateChange: Equatable where State: Equatable {
    /// Equal when the old and the new states are.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.old == rhs.old && lhs.new == rhs.new
    }
}
