import ComposeEmitters

/// A value guarded by a lock.
final class LockedBox<Value>: @unchecked Sendable {
    private let state: LockedState<Value>
    init(_ value: Value) { state = LockedState(value) }
    @discardableResult
    func mutate<Result>(_ body: (inout Value) -> Result) -> Result { state.withLock(body) }
}
