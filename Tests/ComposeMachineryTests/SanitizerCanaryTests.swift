import ComposeTestSupport
import Foundation
import Testing

/// A data race and a heap overflow, each run only when `COMPOSE_SANITIZER_CANARY` names it
/// (`race` or `overflow`): `Scripts/sanitize` runs the one its sanitizer must report after the
/// suite, and fails unless the report names this file. A sanitized build that stopped
/// instrumenting, or a report the script stopped reading, then fails CI instead of passing it.
@Suite struct SanitizerCanaryTests {
    private static let canary = ProcessInfo.processInfo.environment["COMPOSE_SANITIZER_CANARY"]

    /// Memory two threads write at once with no lock: what ThreadSanitizer exists to report.
    private final class Unguarded: @unchecked Sendable {
        var value = 0
    }

    /// Two threads increment one unguarded integer 10,000 times each. Which increments are lost
    /// is not what this decides; that ThreadSanitizer reports the race is.
    @Test(.enabled(if: canary == "race", "runs under ThreadSanitizer, when asked"))
    func twoThreadsWritingOneIntegerWithoutALock() async {
        let shared = Unguarded()
        await onThreads(2) { _ in
            for _ in 0..<10_000 { shared.value += 1 }
        }
        #expect(shared.value <= 20_000)
    }

    /// A write one byte past the end of an 8-byte allocation: what AddressSanitizer exists to
    /// report (it stops the process there).
    @Test(.enabled(if: canary == "overflow", "runs under AddressSanitizer, when asked"))
    func aWriteOneBytePastAnAllocation() {
        let bytes = UnsafeMutablePointer<UInt8>.allocate(capacity: 8)
        defer { bytes.deallocate() }
        bytes.initialize(repeating: 0, count: 8)
        bytes[8] = 1
        #expect(bytes[0] == 0)
    }
}
