import ComposeEmitters
import ComposeMachinery
import ComposeStore

/// Tests a store step by step: act, then state the expected new state as a change of the
/// previous one. Exhaustive by default, after TCA's `TestStore`.
///
/// ```swift
/// let tester = StoreTester(component.$state)
/// tester.send(component.login) {
///     $0.status = [.loading]
/// }
/// await tester.receive {          // a change made later, by asynchronous work
///     $0.status = [.loggedIn]
/// }
/// await tester.finish()
/// ```
///
/// ## Exhaustive (the default)
/// - Every change of the state must be asserted. After each step, the state must equal the
///   previous expected state changed by the step's closure; a difference fails the test with a
///   diff (`−expected`, `+actual`). A step without a closure asserts that nothing changed.
/// - Changes made later (by `execute`, `setState`, tasks) queue up, and each must be taken
///   with ``receive(assert:timeout:fileID:filePath:line:column:)`` before the next step.
/// - Emitters passed to `track(_:label:)` must have every value they send taken with
///   ``receive(_:timeout:fileID:filePath:line:column:)``.
/// - ``finish(timeout:fileID:filePath:line:column:)`` fails on asynchronous work still running
///   (queued `setState`/`withState`, `execute` calls), and on changes or events nobody took.
///
/// ## Not exhaustive
/// With `exhaustivity: .off`, a step's closure is applied to the actual state, so only what it
/// sets is checked; ``receive(assert:timeout:fileID:filePath:line:column:)`` waits for a
/// state that matches, skipping others; nothing is owed at the end. For integration tests.
///
/// Failures are reported at the line of the call, under XCTest and Swift Testing, and any
/// Compose `Diagnostic` reported during a step fails the test too.
///
/// ## References
/// Expected states are detached snapshots: their `@Ref` and `@RefCollection` properties hold
/// the values they read when the snapshot was taken, in entities of the tester's own. An
/// assertion that writes to them (`$0.notes = [...]`) changes the expectation only, never the
/// app's data, and is checked at its own line. A write to a referenced entity is a change of
/// the state like any other: exhaustive mode fails when it is not asserted. Each change is
/// recorded with what the state's references read at that commit, not when the tester hears of
/// it (the entity may have been written again meanwhile): while a tester lives, the store keeps
/// those values with each commit.
public final class StoreTester<State: AnyState>: @unchecked Sendable {  // Mutable state under `state`'s lock.
    /// How much a test must assert.
    public enum Exhaustivity: Sendable {
        /// Every change and event.
        case on
        /// Only what the closures state.
        case off
    }

    struct Tracked {
        let label: String
        var values: [any Sendable] = []
    }

    /// A detached copy of a state (see "References"): its references point at entities of a
    /// world of its own, holding the values they read when it was taken.
    struct Snapshot {
        var state: State
        /// Where the snapshot's references live; an assertion about it runs there, so values it
        /// assigns join the snapshot's entities, never the app's.
        let world: ComposeWorld
    }

    struct Progress {
        /// The state the test has accounted for.
        var expected: Snapshot
        /// Commits since, not yet accounted for: each new state, in order.
        var changes: [Snapshot] = []
        var tracked: [ObjectIdentifier: Tracked] = [:]
        var finished = false
    }

    /// The store under test.
    public let store: Store<State>
    /// Whether every change must be asserted (`.on`, the default) or only what the steps state.
    public let exhaustivity: Exhaustivity
    /// How long ``receive(assert:timeout:fileID:filePath:line:column:)`` and
    /// ``finish(timeout:fileID:filePath:line:column:)`` wait by default: 5 s unless given. A
    /// step returns as soon as what it waits for happens, so the limit only costs time when a
    /// test fails; it is generous because a busy CI machine running tests in parallel (or under
    /// a sanitizer) can hold background work back for over a second.
    public let timeout: Duration
    let progress: LockedState<Progress>
    let created: TestLocation
    var subscriptions: [EmitterSubscription] = []
    /// Ends the store's capture of referenced values (see `StoreStorage.captureReferencedValues()`).
    let stopCapturing: @Sendable () -> Void

    /// Starts testing `store` from its current state.
    public init(
        _ store: Store<State>,
        exhaustivity: Exhaustivity = .on,
        timeout: Duration = .seconds(5),
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) {
        self.store = store
        self.exhaustivity = exhaustivity
        self.timeout = timeout
        self.created = TestLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        let storage = store.storage
        // Each commit keeps what its references read at that moment, so a referenced value
        // written again before the tester hears of the commit is recorded as it was.
        stopCapturing = storage.captureReferencedValues()
        let progress = LockedState(Progress(expected: Self.snapshot(store.state, of: storage)))
        self.progress = progress
        subscriptions.append(
            store.didChange.register { change in
                let snapshot = Self.snapshot(change.new, of: storage, values: change.referencedValues)
                progress.withLock { $0.changes.append(snapshot) }
            })
    }

    /// A detached copy of `state` (see "References"), its references holding `values` where
    /// the commit captured them.
    static func snapshot(
        _ state: State,
        of storage: StoreStorage<State>,
        values: ReferencedValues = ReferencedValues()
    ) -> Snapshot {
        let world = ComposeWorld(label: "StoreTester snapshot")
        return Snapshot(state: storage.detachedCopy(of: state, in: world, values: values), world: world)
    }

    func snapshot(_ state: State) -> Snapshot {
        Self.snapshot(state, of: store.storage)
    }

    deinit {
        for subscription in subscriptions { subscription.cancel() }
        stopCapturing()
        guard exhaustivity == .on else { return }
        let owed = progress.withLock { progress in
            progress.finished ? nil : Self.owed(progress)
        }
        if let owed, !owed.isEmpty {
            created.fail("The StoreTester ended with work nobody checked (call finish()):\n" + owed.joined(separator: "\n"))
        }
    }

    /// The state the test has accounted for so far.
    public var state: State {
        progress.withLock { $0.expected.state }
    }

    // MARK: Steps

    /// Sends `emitter`'s signal, then checks the state.
    ///
    /// - Parameters:
    ///   - emitter: The emitter to send through.
    ///   - assert: Changes the previous expected state into the one expected now; `nil`
    ///     expects no change.
    ///   - fileID: Where failures are reported; the caller's file by default.
    ///   - filePath: Where failures are reported; the caller's file by default.
    ///   - line: Where failures are reported; the caller's line by default.
    ///   - column: Where failures are reported; the caller's column by default.
    public func send(
        _ emitter: SignalEmitter,
        assert: ((inout State) throws -> Void)? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) {
        step(
            "send(\(emitter.label ?? "a signal"))",
            at: TestLocation(fileID: fileID, filePath: filePath, line: line, column: column), assert: assert
        ) {
            emitter.send()
        }
    }

    /// Sends `value` on `emitter`, then checks the state.
    public func send<Value>(
        _ emitter: ValueEmitter<Value>,
        _ value: Value,
        assert: ((inout State) throws -> Void)? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) {
        step(
            "send(\(emitter.label ?? "a value"), \(value))",
            at: TestLocation(fileID: fileID, filePath: filePath, line: line, column: column), assert: assert
        ) {
            emitter.send(value)
        }
    }

    /// Changes the store with `body` (as a component would), then checks the state.
    public func mutate(
        _ body: @escaping (inout State) -> Void,
        assert: ((inout State) throws -> Void)? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) {
        step("mutate", at: TestLocation(fileID: fileID, filePath: filePath, line: line, column: column), assert: assert) {
            store.mutate(body)
        }
    }

    /// Runs `action` (calling a service, advancing a clock), then checks the state.
    public func run(
        _ action: () -> Void,
        assert: ((inout State) throws -> Void)? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) {
        step("run", at: TestLocation(fileID: fileID, filePath: filePath, line: line, column: column), assert: assert, action)
    }

    /// Checks the current state, taking every change made so far.
    public func assert(
        _ assert: (inout State) throws -> Void,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) {
        let location = TestLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        progress.withLock { $0.changes.removeAll() }
        check("the state", against: store.state, at: location, assert: assert)
    }

    func step(
        _ name: String,
        at location: TestLocation,
        assert: ((inout State) throws -> Void)?,
        _ action: () -> Void
    ) {
        if exhaustivity == .on {
            let unreceived = progress.withLock { $0.changes.count }
            if unreceived > 0 {
                location.fail(
                    "\(unreceived) state change\(unreceived == 1 ? "" : "s") made since the last step must be received before \(name)."
                )
            }
        }
        progress.withLock { $0.changes.removeAll() }
        failOnDiagnostics(at: location, action)
        // What the step did synchronously is accounted for by this check.
        progress.withLock { $0.changes.removeAll() }
        check("the state after \(name)", against: store.state, at: location, asserted: assert != nil, assert: assert ?? { _ in })
    }

    /// Checks `actual` against the expectation `assert` makes, and accounts for it.
    func check(
        _ what: String,
        against actual: State,
        at location: TestLocation,
        asserted: Bool = true,
        assert: (inout State) throws -> Void
    ) {
        let start = exhaustivity == .on ? progress.withLock { $0.expected } : snapshot(actual)
        var expected = start.state
        do {
            try start.world.run { try assert(&expected) }
        } catch {
            location.fail("The assertion about \(what) threw: \(error)")
        }
        if expected != actual {
            let verb = asserted ? "does not match the expectation" : "changed, and no change was asserted"
            location.fail(
                "\(what.prefix(1).uppercased() + what.dropFirst()) \(verb): \(Difference.describe(expected: expected, actual: actual))"
            )
        }
        let accounted = snapshot(actual)
        progress.withLock { $0.expected = accounted }
    }

    // MARK: Later changes

    /// Takes the next change of the state made since the last step (by asynchronous work),
    /// waiting up to `timeout` for it, and checks it.
    ///
    /// Not exhaustive: waits for a state that matches, skipping the others.
    public func receive(
        assert: (inout State) throws -> Void,
        timeout: Duration? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async {
        let location = TestLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        let limit = timeout ?? self.timeout
        if exhaustivity == .off {
            await receiveMatching(assert: assert, timeout: limit, at: location)
            return
        }
        guard await wait(until: { self.progress.withLock { !$0.changes.isEmpty } }, timeout: limit) else {
            location.fail("Waited \(limit) for a change of the state; none came.")
            return
        }
        let next = progress.withLock { $0.changes.removeFirst() }
        check("the state received", against: next.state, at: location, assert: assert)
    }

    func receiveMatching(assert: (inout State) throws -> Void, timeout: Duration, at location: TestLocation) async {
        let deadline = ContinuousClock.now.advanced(by: timeout)
        while true {
            let current = store.state
            let start = snapshot(current)
            var expected = start.state
            try? start.world.run { try assert(&expected) }
            if expected == current {
                let accounted = snapshot(current)
                progress.withLock { progress in
                    progress.changes.removeAll()
                    progress.expected = accounted
                }
                return
            }
            guard ContinuousClock.now < deadline else {
                location.fail(
                    "Waited \(timeout) for the state to match: \(Difference.describe(expected: expected, actual: current))")
                return
            }
            try? await Task.sleep(for: .milliseconds(1))
        }
    }

    /// Takes every change made since the last step without checking it, and accounts for
    /// them: for a test that does not care how the state got where it is. The next step
    /// expects changes from the last of them. It never fails.
    public func skipReceivedChanges() {
        progress.withLock { progress in
            if let last = progress.changes.last { progress.expected = last }
            progress.changes.removeAll()
        }
    }

    // MARK: Finishing

    /// Waits up to `timeout` for the store's asynchronous work to end, then, exhaustive, fails
    /// on changes and events nobody received.
    public func finish(
        timeout: Duration? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async {
        let location = TestLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        let limit = timeout ?? self.timeout
        let store = self.store
        if !(await wait(until: { store.pendingWork.queued == 0 && store.pendingWork.executing.isEmpty }, timeout: limit)) {
            let work = store.pendingWork
            var running: [String] = []
            if work.queued > 0 { running.append("\(work.queued) queued setState/withState") }
            running += work.executing.map { "execute(\($0))" }
            location.fail("Asynchronous work still running after \(limit): \(running.joined(separator: ", ")).")
        }
        let owed = progress.withLock { progress in
            progress.finished = true
            return exhaustivity == .on ? Self.owed(progress) : []
        }
        if !owed.isEmpty {
            location.fail("Work nobody checked:\n" + owed.joined(separator: "\n"))
        }
    }

    /// What an exhaustive test still owes: changes and events not received.
    static func owed(_ progress: Progress) -> [String] {
        var owed: [String] = []
        if let last = progress.changes.last {
            let count = progress.changes.count
            owed.append(
                "- \(count) state change\(count == 1 ? "" : "s") not received: "
                    + Difference.describe(expected: progress.expected.state, actual: last.state)
            )
        }
        for tracked in progress.tracked.values.sorted(by: { $0.label < $1.label }) where !tracked.values.isEmpty {
            owed.append(
                "- \(tracked.label) sent \(tracked.values.count) value\(tracked.values.count == 1 ? "" : "s") not received: \(tracked.values)"
            )
        }
        return owed
    }
}
