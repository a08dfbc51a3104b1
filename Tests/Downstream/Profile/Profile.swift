import ComposeStore

/// A profile editor: a store, and what its buttons do.
public struct ProfileEditor: Sendable {
    public struct State: AnyState {
        public var name = ""
        public var saves = 0
        public init() {}
    }

    @Store public var state: State

    public init() {}

    public func rename(_ name: String) {
        $state.name = name
    }

    public func save() {
        $state.mutate { $0.saves += 1 }
    }
}
