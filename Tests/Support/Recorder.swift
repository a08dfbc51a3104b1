// Helpers shared by this package's test targets. Not a product: the helpers users put in their
// own tests live in ComposeTesting.

import ComposeEmitters
import ComposeMachinery
@_exported public import ComposeTesting
import Foundation

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

    /// Waits until `count` values arrived, or gives up after `timeout` (see ``eventually``).
    @discardableResult
    public func wait(forCount count: Int, timeout: Duration = testWaitLimit) async -> Bool {
        await eventually(timeout: timeout) { self.count >= count }
    }
}

extension Recorder where Value == Void {
    public func record() {
        record(())
    }
}

/// How long a test waits for something that should happen before it fails: 60 seconds, or
/// `COMPOSE_TEST_WAIT_LIMIT` seconds. The limit is only reached when the awaited thing never
/// happens, so it is generous, for a loaded machine under a sanitizer; `Scripts/mutate`, which
/// expects the planted bug to make some waits fail, runs the tests with 15.
public let testWaitLimit: Duration = .seconds(
    ProcessInfo.processInfo.environment["COMPOSE_TEST_WAIT_LIMIT"].flatMap { Int($0) } ?? 60
)

/// Waits until `condition` holds, or `timeout` of real time has passed.
///
/// Checks after a few yields, then every millisecond: a loop that only yields keeps a core busy,
/// and on a 2-core machine under a sanitizer that core is the one the work it waits for needs.
/// The timeout is generous because it is only reached when the condition never holds.
@discardableResult
public func eventually(timeout: Duration = testWaitLimit, _ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now.advanced(by: timeout)
    var checks = 0
    while !condition() {
        guard ContinuousClock.now < deadline else { return false }
        checks += 1
        if checks < 100 {
            await Task.yield()
        } else {
            try? await Task.sleep(for: .milliseconds(1))
        }
    }
    return true
}
