import ComposeEmitters
import ComposeMachinery

/// Records what an emitter sends, for a test to check.
///
/// ```swift
/// let sent = component.logIn.record()
/// component.logIn.send()
/// sent.expectCount(1)
///
/// let emails = component.email.record()
/// component.email.send("jill@example.com")
/// emails.expect(["jill@example.com"])
/// await emails.wait(forCount: 2)        // values sent from other tasks or threads
/// ```
///
/// The recorder subscribes outside any `ObservationScope` (a component's observers being set
/// up do not own it) and stops at ``cancel()`` or when released. Values are recorded in the
/// order the emitter delivers them, from any thread.
public final class EmitterRecorder<Value: Sendable>: Sendable {
    private let recorded = LockedState<[Value]>([])
    private let subscription: EmitterSubscription

    /// Starts recording what `emitter` sends.
    public init<E: Emitter>(_ emitter: E) where E.Value == Value {
        let recorded = self.recorded
        subscription = emitter.register { value in
            recorded.withLock { $0.append(value) }
        }
    }

    deinit {
        subscription.cancel()
    }

    /// Stops recording.
    public func cancel() {
        subscription.cancel()
    }

    /// The values recorded so far, in order.
    public var values: [Value] {
        recorded.withLock { $0 }
    }

    /// The number of values recorded so far.
    public var count: Int {
        recorded.withLock { $0.count }
    }

    /// Forgets the values recorded so far.
    public func clear() {
        recorded.withLock { $0.removeAll() }
    }

    /// Fails the test unless exactly `count` values were recorded.
    public func expectCount(
        _ count: Int,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) {
        let recorded = self.count
        guard recorded != count else { return }
        TestLocation(fileID: fileID, filePath: filePath, line: line, column: column)
            .fail("Expected \(count) value\(count == 1 ? "" : "s") sent, got \(recorded).")
    }

    /// Waits until at least `count` values were recorded; fails the test if they do not come
    /// within `timeout` (5 s unless given: it returns as soon as they come, so the limit only
    /// costs time when the test fails).
    ///
    /// - Returns: Whether they came.
    @discardableResult
    public func wait(
        forCount count: Int,
        timeout: Duration = .seconds(5),
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async -> Bool {
        if await ComposeTesting.wait(until: { self.count >= count }, timeout: timeout) { return true }
        TestLocation(fileID: fileID, filePath: filePath, line: line, column: column)
            .fail("Waited \(timeout) for \(count) value\(count == 1 ? "" : "s") sent, got \(self.count).")
        return false
    }
}

extension EmitterRecorder where Value: Equatable {
    /// Fails the test unless the values recorded are exactly `expected`, with a diff.
    public func expect(
        _ expected: [Value],
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) {
        let actual = values
        guard actual != expected else { return }
        TestLocation(fileID: fileID, filePath: filePath, line: line, column: column)
            .fail("The values sent do not match: \(Difference.describe(expected: expected, actual: actual))")
    }
}

extension Emitter {
    /// Starts recording what this emitter sends; see ``EmitterRecorder``.
    public func record() -> EmitterRecorder<Value> {
        EmitterRecorder(self)
    }
}
