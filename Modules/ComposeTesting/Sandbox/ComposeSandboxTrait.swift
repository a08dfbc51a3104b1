#if canImport(Testing)
import Testing

/// Runs each test in a ``ComposeSandbox`` of its own: `@Suite(.composeSandbox)` or
/// `@Test(.composeSandbox)`.
///
/// On a suite, every test of the suite (and of its nested suites), and every case of a
/// parameterized test, gets a sandbox of its own; tests run in parallel as usual.
public struct ComposeSandboxTrait: TestTrait, SuiteTrait, TestScoping {
    /// How each sandbox keeps time.
    public let clock: ComposeSandbox.Clock

    public var isRecursive: Bool { true }

    public func provideScope(
        for test: Test,
        testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        // A suite's own scope, or a test's before its cases: pass through, so that each case
        // gets a sandbox of its own.
        guard testCase != nil else {
            try await function()
            return
        }
        try await withComposeSandbox(label: test.name, clock: clock) { _ in try await function() }
    }
}

extension Trait where Self == ComposeSandboxTrait {
    /// Each test in a ``ComposeSandbox`` of its own, on the continuous clock.
    public static var composeSandbox: Self {
        ComposeSandboxTrait(clock: .continuous)
    }

    /// Each test in a ``ComposeSandbox`` of its own, keeping time with `clock` (`.test`: a
    /// `TestClock` per test, ``ComposeSandbox/testClock``).
    public static func composeSandbox(clock: ComposeSandbox.Clock) -> Self {
        ComposeSandboxTrait(clock: clock)
    }
}
#endif
