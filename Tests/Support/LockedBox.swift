import ComposeEmitters
import ComposeMachinery

/// A value guarded by a lock, for the tests' own doubles and bookkeeping.
public final class LockedBox<Value>: @unchecked Sendable {  // The value is only touched under the lock.
    private let state: LockedState<Value>

    public init(_ value: Value) {
        state = LockedState(value)
    }

    /// The value, read under the lock.
    public var value: Value {
        state.withLock { $0 }
    }

    /// Changes the value under the lock and returns what `body` returns.
    @discardableResult
    public func mutate<Result>(_ body: (inout Value) -> Result) -> Result {
        state.withLock(body)
    }
}
