import ComposeEmitters
import ComposeMachinery
import ComposeStore

// Events a test tracks beside the state: what an emitter sent, received in order.

extension StoreTester {
    /// Records every signal `emitter` sends from now on; each must be received.
    public func track(_ emitter: SignalEmitter, label: String? = nil) {
        track(emitter, label: label ?? emitter.label ?? "a SignalEmitter")
    }

    /// Records every value `emitter` sends from now on; each must be received.
    public func track<Value>(_ emitter: ValueEmitter<Value>, label: String? = nil) {
        track(emitter, label: label ?? emitter.label ?? "a ValueEmitter<\(Value.self)>")
    }

    func track<E: Emitter & AnyObject>(_ emitter: E, label: String) {
        let key = ObjectIdentifier(emitter)
        let progress = self.progress
        progress.withLock { $0.tracked[key] = Tracked(label: label) }
        subscriptions.append(
            emitter.register { value in
                progress.withLock { $0.tracked[key]?.values.append(value) }
            })
    }

    /// Takes the next signal `emitter` sent, waiting up to `timeout` for it.
    public func receive(
        _ emitter: SignalEmitter,
        timeout: Duration? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async {
        _ = await next(
            of: emitter, timeout: timeout, at: TestLocation(fileID: fileID, filePath: filePath, line: line, column: column))
    }

    /// Takes the next value `emitter` sent, waiting up to `timeout` for it, and checks it.
    public func receive<Value: Equatable>(
        _ emitter: ValueEmitter<Value>,
        _ expected: Value,
        timeout: Duration? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async {
        let location = TestLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        guard let value = await next(of: emitter, timeout: timeout, at: location) as? Value else { return }
        if value != expected {
            location.fail(
                "The value received from \(emitter.label ?? "the emitter") does not match: \(Difference.describe(expected: expected, actual: value))"
            )
        }
    }

    func next(of emitter: AnyObject, timeout: Duration?, at location: TestLocation) async -> (any Sendable)? {
        let key = ObjectIdentifier(emitter)
        guard let label = progress.withLock({ $0.tracked[key]?.label }) else {
            location.fail("Receiving from an emitter that is not tracked: call track(_:) first.")
            return nil
        }
        let limit = timeout ?? self.timeout
        guard await wait(until: { self.progress.withLock { !($0.tracked[key]?.values.isEmpty ?? true) } }, timeout: limit) else {
            location.fail("Waited \(limit) for \(label) to send; it did not.")
            return nil
        }
        return progress.withLock { $0.tracked[key]?.values.removeFirst() }
    }
}
