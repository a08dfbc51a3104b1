/// State that an optimistic read-modify-write commits to: versioned, and gated by a
/// ``CommitGate`` once a writer has lost too many runs.
///
/// A store's core and a `@Ref` entity's contents conform; ``runOptimistically(on:snapshot:body:commit:)``
/// is the one loop both use.
@usableFromInline
package protocol CommitGated {
    /// Bumped by every commit that changed something.
    var version: UInt64 { get }
    /// The thread running an irrevocable `mutate`, or 0.
    var gateOwner: UInt { get set }
    /// Made by the first `mutate` that becomes irrevocable.
    var gate: CommitGate? { get set }
}

/// Runs an optimistic read-modify-write on the state guarded by `lock`: `body` works on what
/// `snapshot` takes, without the lock, and `commit` applies it under the lock if no other write
/// landed since (the version did not move); otherwise `body` runs again on the newer state.
/// After ``CommitGate/optimisticRuns`` lost runs the loop takes the gate, so that other writers
/// wait while `body` runs once more (see ``CommitGate``); it never holds `lock` while `body`
/// runs.
///
/// - Parameters:
///   - snapshot: Under the lock: what `body` works on.
///   - body: Without the lock: the user's code. It may run more than once.
///   - commit: Under the lock, once the version is known to be unchanged: applies the work.
/// - Returns: What `body` returned on the run that was committed.
@inlinable
package func runOptimistically<State: CommitGated, Work, Result>(
    on lock: LockedState<State>,
    snapshot: (inout State) -> Work,
    body: (inout Work) throws -> Result,
    commit: (inout State, inout Work) -> Void
) rethrows -> Result {
    var lostRuns = 0
    var heldGate: CommitGate?
    defer { if let heldGate { lock.leaveGate(heldGate) } }
    while true {
        if heldGate == nil, lostRuns >= CommitGate.optimisticRuns { heldGate = lock.enterGate() }
        let taken: (Work, UInt64)? = lock.withLock { state in
            CommitGate.mustWait(forGateOwner: state.gateOwner) ? nil : (snapshot(&state), state.version)
        }
        guard case (var work, let version)? = taken else {
            // Another thread's irrevocable run: wait for it, without counting a lost run.
            lock.withLock { $0.gate }?.waitForTheIrrevocableRun()
            continue
        }
        let result = try body(&work)
        let outcome: CommitAttempt = lock.withLock { state in
            if CommitGate.mustWait(forGateOwner: state.gateOwner) { return .gated(state.gate!) }
            guard state.version == version else { return .stale }
            commit(&state, &work)
            return .committed
        }
        switch outcome {
        case .committed:
            return result
        case .stale:
            lostRuns += 1
        case .gated(let gate):
            gate.waitForTheIrrevocableRun()
            lostRuns += 1
        }
    }
}

/// What an attempt to commit came to.
@usableFromInline
package enum CommitAttempt {
    case committed
    /// Another write landed since the snapshot: run the body again.
    case stale
    /// An irrevocable run of another thread holds the gate: wait for it, then try again.
    case gated(CommitGate)
}

extension LockedState where State: CommitGated {
    /// Whether a writer on this thread must wait for an irrevocable run; if so, the gate to
    /// wait on. Call under the lock, before writing.
    @inlinable
    package static func gateToWaitFor(_ state: State) -> CommitGate? {
        CommitGate.mustWait(forGateOwner: state.gateOwner) ? state.gate : nil
    }

    /// Takes the gate for an irrevocable run and marks the state as gated by this thread.
    @usableFromInline
    package func enterGate() -> CommitGate {
        let gate = withLock { state in
            if let gate = state.gate { return gate }
            let gate = CommitGate()
            state.gate = gate
            return gate
        }
        gate.enter()
        withLock { $0.gateOwner = ThreadIdentity.current }
        return gate
    }

    @usableFromInline
    package func leaveGate(_ gate: CommitGate) {
        withLock { $0.gateOwner = 0 }
        gate.leave()
    }
}
