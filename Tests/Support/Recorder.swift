// Helpers shared by this package's test targets. Not a product: the helpers users put in their
// own tests live in ComposeTesting.

import ComposeEmitters
import ComposeMachinery
@_exported public import ComposeTesting

/// Collects what handlers receive, from any thread.
public final class Recorder<Value: Sendable>: Sendable {
    private let state = LockedState<[Value]>([])

    public init() {}

    public func record(_ value: Value) {
        state.withLock { $0.append(value) }
    }

    public var values: [Value] {
        state.withLock { $0 }
    }

    public var count: Int {
        state.withLock { $0.count }
    }

    /// Waits (without sleeping) until `count` values arrived, or gives up after `timeout`.
    @discardableResult
    public func wait(forCount count: Int, timeout: Duration = .seconds(10)) async -> Bool {
        await eventually(timeout: timeout) { self.count >= count }
    }
}

extension Recorder where Value == Void {
    public func record() {
        record(())
    }
}

/// Yields until `condition` holds, or `timeout` of real time has passed.
@discardableResult
public func eventually(timeout: Duration = .seconds(10), _ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now.advanced(by: timeout)
    while !condition() {
        guard ContinuousClock.now < deadline else { return false }
        await Task.yield()
    }
    return true
}
