import Clocks
import Compose
import ComposeEmitters
import ComposeMachinery
import ComposePersistence
import Foundation

/// A world of its own for one test: its own `@Ref` entities, services, persistence directory,
/// event log and clock, so tests running in parallel never see each other's.
///
/// ```swift
/// @Suite(.composeSandbox)          // every test of the suite in a sandbox of its own
/// struct NotesTests {
///     @Test func renaming() { ... }
/// }
///
/// func testRenaming() {            // XCTest, or any code
///     withComposeSandbox { sandbox in ... }
/// }
/// ```
///
/// Inside a sandbox:
/// - `@Ref`, `@RefCollection` and `Referred` find entities in the sandbox only: two tests that
///   each make note 1 have two notes 1;
/// - services read in the sandbox are created for it (replacements of enclosing scopes still
///   apply), and `services.clock` is the sandbox's clock;
/// - `FilePersistentStorage(key:)` writes to a temporary directory of the sandbox's
///   (``directory``), removed when the sandbox ends, after the autosaves made in the sandbox
///   have written what they had pending (see "Saves after the end");
/// - `EventLog.observe` sees the sandbox's events only;
/// - ``clock`` (the continuous clock, or a `TestClock` the test drives, ``testClock``) is
///   `ComposeClock.current`: `debounce`, `throttle`, `delay`, timers and autosave created in the
///   sandbox run on it.
///
/// Outside any sandbox nothing changes.
///
/// ## What belongs to a sandbox
/// The sandbox follows the task, like a task-local value: the code of the test, the tasks it
/// starts with `Task { }` or in a task group, and what they call (components' observers, a
/// store's queued `setState` work, time-based operators' timers) run in it. Objects made in a
/// sandbox keep what they got from it wherever they are used later: a `@Ref` keeps its entity, a
/// component its services, a `FilePersistentStorage` its directory. Work that escapes the task
/// tree runs in the process world instead: a thread (`DispatchQueue.async`, a `Thread`), and a
/// `Task.detached`, which inherits no task-local value, so it sees no sandbox, the process's
/// `@Ref` entities and services, and the default persistence directory. Capture the sandbox and
/// enter it there:
///
/// ```swift
/// let sandbox = ComposeSandbox.current!
/// DispatchQueue.global().async { sandbox.run { notes.load() } }
/// Task.detached { await sandbox.run { await notes.refresh() } }
/// ```
///
/// ## Saves after the end
/// When the sandbox ends, it waits for the autosaves of the stores made in it (up to five
/// seconds each), a store's last save when it went away included; then it closes its directory
/// to saves, waits for those being written, and removes it. A storage for its directory (or a
/// directory inside it), made in the sandbox or anywhere else, never writes there again: a save that comes later
/// (an autosave window that closes after the test, a store made later by a task the test
/// started) is refused with `PersistenceError.unwritable`, naming the sandbox; autosave reports
/// it on the store's `persistence.errors` (and `flush()` throws it), `save()` throws it. Nothing
/// is written and the directory is not recreated. Restores there find nothing.
public final class ComposeSandbox: Sendable {
    /// How a sandbox keeps time.
    public enum Clock: Sendable {
        /// The continuous clock.
        case continuous
        /// A `TestClock` of the sandbox's own, advanced by the test (``testClock``).
        case test
        /// A clock of the test's choosing.
        case custom(ComposeClock)
    }

    /// The sandbox the current task runs in, if any.
    @TaskLocal
    public static var current: ComposeSandbox?

    /// The test's name, or the label given.
    public let label: String
    /// The directory `FilePersistentStorage` writes to by default in the sandbox; removed when
    /// the sandbox ends, and never written to again (see "Saves after the end").
    public let directory: URL
    /// The clock of the sandbox: `ComposeClock.current` and `services.clock` inside it.
    public let clock: ComposeClock
    /// The test clock, if the sandbox was made with ``Clock/test``.
    public let testClock: TestClock<Duration>?
    let world: ComposeWorld
    let services: ServiceStorage
    let scopedDirectory: ScopedDirectory

    init(label: String, clock: Clock) {
        self.label = label
        world = ComposeWorld(label: label)
        services = ServiceStorage(parent: ServiceStorage.scoped)
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("compose-sandbox-\(UUID().uuidString)", isDirectory: true)
        scopedDirectory = ScopedDirectory(url: directory, owner: "the sandbox \(label.debugDescription)")
        switch clock {
        case .continuous:
            testClock = nil
            self.clock = .continuous
        case .test:
            let testClock = TestClock<Duration>()
            self.testClock = testClock
            self.clock = ComposeClock(testClock)
        case .custom(let custom):
            testClock = custom.base as? TestClock<Duration>
            self.clock = custom
        }
    }

    /// Ends the sandbox: waits for the autosaves made in it (a save pending when its store
    /// went away included), then closes its directory to saves, waits for those being written,
    /// and removes it.
    func end() {
        AutosaveRegistry.flushAll(in: world)
        scopedDirectory.close()
    }

    /// Runs `body` in the sandbox: for work that escaped it to another thread.
    @discardableResult
    public func run<Result>(_ body: () throws -> Result) rethrows -> Result {
        try Self.$current.withValue(self) {
            try world.run {
                try ServiceStorage.$scoped.withValue(services) {
                    try scopedDirectory.run {
                        try ComposeClock.withCurrent(clock, operation: body)
                    }
                }
            }
        }
    }

    /// Runs the asynchronous `body` in the sandbox.
    @discardableResult
    public func run<Result>(
        isolation: isolated (any Actor)? = #isolation,
        _ body: () async throws -> Result
    ) async rethrows -> Result {
        try await Self.$current.withValue(
            self,
            operation: {
                try await world.run {
                    try await ServiceStorage.$scoped.withValue(
                        services,
                        operation: {
                            try await scopedDirectory.run(isolation: isolation) {
                                try await ComposeClock.withCurrent(clock, operation: body)
                            }
                        }, isolation: isolation)
                }
            }, isolation: isolation)
    }
}

/// Runs `body` in a sandbox of its own (see ``ComposeSandbox``): for XCTest and plain code.
///
/// - Parameters:
///   - label: A name for diagnostics.
///   - clock: How the sandbox keeps time; `.test` gives it a `TestClock` (``ComposeSandbox/testClock``).
///   - body: The code to run in the sandbox, given the sandbox.
@discardableResult
public func withComposeSandbox<Result>(
    label: String = "sandbox",
    clock: ComposeSandbox.Clock = .continuous,
    _ body: (ComposeSandbox) throws -> Result
) rethrows -> Result {
    let sandbox = ComposeSandbox(label: label, clock: clock)
    defer { sandbox.end() }
    return try sandbox.run { try body(sandbox) }
}

/// Runs the asynchronous `body` in a sandbox of its own (see ``ComposeSandbox``).
@discardableResult
public func withComposeSandbox<Result>(
    label: String = "sandbox",
    clock: ComposeSandbox.Clock = .continuous,
    isolation: isolated (any Actor)? = #isolation,
    _ body: (ComposeSandbox) async throws -> Result
) async rethrows -> Result {
    let sandbox = ComposeSandbox(label: label, clock: clock)
    defer { sandbox.end() }
    return try await sandbox.run(isolation: isolation) { try await body(sandbox) }
}
