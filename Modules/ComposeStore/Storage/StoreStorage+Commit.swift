import ComposeEmitters
import ComposeMachinery
import Observation
import Synchronization

// Keyed writes and `mutate`, and what decides whether a commit is heard.

extension StoreStorage {
    /// What a write's attempt to commit came to.
    @usableFromInline
    enum Commit {
        /// Committed, with a notice posted (see ``post(_:states:in:)``): whether this thread took the
        /// notifier's role and delivers it itself.
        case committed(tookTheRole: Bool)
        /// Committed; nobody hears it, so no notice was queued.
        case unheard
        /// Nothing changed; nobody is notified.
        case unchanged
        /// An irrevocable `mutate` of another thread is running: wait for it, then try again.
        case gated(CommitGate)
    }

    /// Writes `value` at `keyPath`.
    ///
    /// A stored property is written in place, under the lock; writing the bytes already there
    /// notifies nobody. A key path with no offset goes through ``mutate(_:)``, so a computed
    /// property's setter (user code) runs outside the lock.
    ///
    /// - Complexity: O(1) for a stored property, plus a copy of the state when the change
    ///   emitters or the event log need it.
    @inlinable
    func write<Value>(_ keyPath: WritableKeyPath<State, Value>, _ value: Value) {
        if let working = MutationFrame.workingCopy(of: self) {
            working.assumingMemoryBound(to: State.self).pointee[keyPath: keyPath] = value
            return
        }
        guard let offset = MemoryLayout<State>.offset(of: keyPath) else {
            mutate { $0[keyPath: keyPath] = value }
            return
        }
        let size = MemoryLayout<Value>.size
        let wantsStates = needsStates
        // The value written swaps places with the old one, which is released after the lock:
        // releasing a value can run a deinit, which is user code.
        var outgoing = value
        while true {
            let outcome: Commit = core.withLock { core in
                if let gate = LockedState<Core>.gateToWaitFor(core) { return .gated(gate) }
                let unchanged = withUnsafeBytes(of: &core.state) { state in
                    withUnsafeBytes(of: &outgoing) { new in
                        size == 0 || memcmp(state.baseAddress! + offset, new.baseAddress!, size) == 0
                    }
                }
                guard !unchanged else { return .unchanged }
                // Boxed at once: see `States`.
                let states = wantsStates ? States(old: core.state, new: core.state, keyPath: keyPath) : nil
                withUnsafeMutableBytes(of: &core.state) { state in
                    swap(&state.baseAddress!.advanced(by: offset).assumingMemoryBound(to: Value.self).pointee, &outgoing)
                }
                core.version &+= 1
                let changes = ChangedWords(offset: offset, size: size)
                referencesCommitted(changes, in: &core)
                guard isHeard(changes, in: &core, keepingStates: wantsStates) else { return .unheard }
                states?.new = core.state
                return .committed(tookTheRole: post(changes, states: states, in: &core))
            }
            switch outcome {
            case .gated(let gate):
                gate.waitForTheIrrevocableRun()
                continue
            case .committed(let tookTheRole):
                deliverPosted(tookTheRole: tookTheRole)
            case .unchanged, .unheard:
                break
            }
            return
        }
    }

    /// Runs `body` on a copy of the state and commits the result atomically, with one
    /// notification for the whole batch.
    ///
    /// If another write commits while `body` runs, `body` runs again on the newer state, so no
    /// write is lost. After ``CommitGate/optimisticRuns`` lost runs the `mutate` becomes
    /// irrevocable: other writers of this store wait while `body` runs once more, and it commits
    /// (see ``CommitGate``). No lock of the store is held while `body` runs. Inside `body`,
    /// reads and writes of this store on this thread (including a nested `mutate`) see and change
    /// the working copy. If `body` throws, nothing is committed.
    ///
    /// - Returns: What `body` returns on the run that was committed.
    @inlinable
    @discardableResult
    package func mutate<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        try mutate(body, committingIf: { true })
    }

    /// ``mutate(_:)``, committing the run only if `condition`, which is evaluated under the
    /// store's lock as the run commits: a condition that turns false before then (an `execute`
    /// run's task cancelled) keeps the run from landing, with no window between the check and
    /// the commit. A run not committed for it ends the `mutate`; nothing changes. Nested in
    /// another `mutate` of this store on this thread, the body changes the outer one's copy (and
    /// undoes its changes if it throws) and `condition` is not asked.
    ///
    /// - Parameter condition: Under the lock, not user code: it must not touch the store.
    @inlinable
    @discardableResult
    package func mutate<Result>(
        _ body: (inout State) throws -> Result,
        committingIf condition: () -> Bool
    ) rethrows -> Result {
        if let working = MutationFrame.workingCopy(of: self) {
            return try MutationFrame.joining(working, as: State.self, body)
        }
        // Set when a notice was posted: whether this thread took the notifier's role.
        var posted: Bool? = nil
        let result = try runOptimistically(
            on: core,
            snapshot: { $0.state },
            body: { copy in
                try withUnsafeMutablePointer(to: &copy) { pointer in
                    try MutationFrame.with(self, workingCopy: UnsafeMutableRawPointer(pointer)) {
                        try body(&pointer.pointee)
                    }
                }
            },
            commit: { core, copy in
                guard condition() else { return }
                swap(&core.state, &copy)
                let wantsStates = needsStates
                if comparesObservedWordsOnly(&core, wantsStates: wantsStates) {
                    // As for a whole-state write: the version moves whether or not the body
                    // changed anything, and only the observed words are compared.
                    core.version &+= 1
                    let changes = withUnsafeBytes(of: &copy) { old in
                        withUnsafeBytes(of: &core.state) { new in core.registry.changedObservedWords(old: old, new: new) }
                    }
                    guard !changes.isEmpty else { return }
                    posted = post(changes, states: nil, in: &core)
                    return
                }
                let changes = withUnsafeBytes(of: &copy) { old in
                    withUnsafeBytes(of: &core.state) { new in ChangedWords.between(old, new) }
                }
                guard !changes.isEmpty else { return }
                core.version &+= 1
                referencesCommitted(changes, in: &core)
                guard isHeard(changes, in: &core, keepingStates: wantsStates) else { return }
                let states = wantsStates ? States(old: copy, new: core.state) : nil
                posted = post(changes, states: states, in: &core)
            }
        )
        if let posted { deliverPosted(tookTheRole: posted) }
        return result
    }

    /// Whether a commit must keep the old and new states: the change emitters (`changed`
    /// included) have subscribers, or the event log is on. They hear of a commit only if its
    /// states differ by value (see ``States/valueChanged``).
    @inlinable
    var needsStates: Bool {
        (lazyWillChange.ifMade?.hasSubscribers ?? false) || (lazyDidChange.ifMade?.hasSubscribers ?? false)
            || (lazyChanged.ifMade?.hasSubscribers ?? false) || EventLog.isRecording(.mutation)
    }

    /// Whether anyone hears a commit of `changes`: an observer of the changed words (Observation's
    /// keyed reads included), a whole-state Observation read, or a listener of every commit that
    /// makes it keep its states (the change emitters, `changed` that autosave uses, the event
    /// log). A commit nobody hears queues no notice at all, so a write nobody observes costs one
    /// lock round trip. Called under the lock, after the commit.
    ///
    /// Skipping is safe for an observer added concurrently: ``addObserver(_:)`` compares the
    /// version it read with the version at registration, and looks again if a commit landed.
    @inlinable
    func isHeard(_ changes: ChangedWords, in core: inout Core, keepingStates: Bool) -> Bool {
        keepingStates || core.registry.observes(changes) || reportsWholeState.load(ordering: .relaxed)
    }
}
