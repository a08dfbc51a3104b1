import ComposeEmitters
import ComposeMachinery
import Observation
import Synchronization

// Whole-state writes: `$state = value` and `state.x = value` through the whole state, committed
// by comparing bytes (or only the observed words).

extension StoreStorage {
    /// Replaces the whole state.
    ///
    /// - Complexity: O(*s*) in the size of the state, to commit it and find what changed (see
    ///   ``commitComparingObservedWordsOnly(from:in:syncing:)`` for when only observed words are
    ///   compared).
    @inlinable
    package func write(_ newValue: consuming State) {
        if let working = MutationFrame.workingCopy(of: self) {
            working.assumingMemoryBound(to: State.self).pointee = newValue
            return
        }
        var incoming = newValue
        commitWholeState(from: &incoming)
    }

    /// Commits `incoming` as the whole state. Afterwards `incoming` holds the state it replaced
    /// (or, for a state of plain bits, anything: it needs no destruction), to be destroyed by the
    /// caller after the lock: releasing a value can run a deinit, which is user code.
    ///
    /// The words that differ are found by comparing the two states' bytes. A state of plain bits
    /// (no references: `_isPOD`) has only those words copied in; any other state is swapped in
    /// whole, so that reference counts stay right.
    ///
    /// - Parameter syncing: The write buffer `incoming` lives in, for a state of plain bits: after
    ///   the commit it holds exactly the store's state, and is marked so (see
    ///   ``WriteBuffer/syncedVersion``).
    @inlinable
    func commitWholeState(from incoming: inout State, syncing buffer: WriteBuffer? = nil) {
        let wantsStates = needsStates
        while true {
            let outcome: Commit = core.withLock { core in
                if let gate = LockedState<Core>.gateToWaitFor(core) { return .gated(gate) }
                if comparesObservedWordsOnly(&core, wantsStates: wantsStates) {
                    return commitComparingObservedWordsOnly(from: &incoming, in: &core, syncing: buffer)
                }
                let changes = withUnsafeBytes(of: &core.state) { old in
                    withUnsafeBytes(of: &incoming) { new in ChangedWords.between(old, new) }
                }
                guard !changes.isEmpty else {
                    buffer?.syncedVersion = core.version
                    return .unchanged
                }
                let states = wantsStates ? States(old: core.state, new: incoming) : nil
                // Fast path for a state of plain bits: only the changed words are copied in.
                // Benchmark: "store 1,000 fields K=..., whole-state write" (`Store/1,000 fields`).
                if _isPOD(State.self) {
                    withUnsafeMutableBytes(of: &core.state) { state in
                        withUnsafeBytes(of: &incoming) { new in
                            changes.forEachRun { run in
                                let start = run.lowerBound * 8
                                let end = min(run.upperBound * 8, new.count)
                                (state.baseAddress! + start).copyMemory(from: new.baseAddress! + start, byteCount: end - start)
                            }
                        }
                    }
                } else {
                    swap(&core.state, &incoming)
                }
                core.version &+= 1
                buffer?.syncedVersion = core.version
                referencesCommitted(changes, in: &core)
                guard isHeard(changes, in: &core, keepingStates: wantsStates) else { return .unheard }
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

    /// Whether only keypath observers of stored properties can hear a commit (no change emitter,
    /// Observation read of the whole state, event log or reference), and they observe few enough
    /// words that comparing just those beats comparing the whole state. Called under the lock.
    ///
    /// Fast path justified by the benchmark rows "store 1,000 fields K=1 / K=100, whole-state
    /// write vs Observation" (`Store/1,000 fields K=1 whole-state write`), where comparing every
    /// word was most of the write.
    @inlinable
    func comparesObservedWordsOnly(_ core: inout Core, wantsStates: Bool) -> Bool {
        !wantsStates && references == nil && core.registry.canCompareObservedWordsOnly
            && !reportsWholeState.load(ordering: .relaxed)
    }

    /// A whole-state commit that only keypath observers of stored properties can hear (see
    /// ``comparesObservedWordsOnly(_:wantsStates:)``): compares only the words they observe, and
    /// commits the whole state without looking at the rest.
    ///
    /// The full comparison reads both copies of the state, 16 KB for a state of 1,000 `Int`
    /// fields, where the observed words of a hundred observers are a hundred reads of each. What
    /// is given up: a write that changed nothing is committed like any other (the version moves,
    /// so a concurrent `mutate` runs its body again, which it does for any commit), and heard by
    /// nobody, as before.
    @inlinable
    func commitComparingObservedWordsOnly(
        from incoming: inout State,
        in core: inout Core,
        syncing buffer: WriteBuffer?
    ) -> Commit {
        let changes = withUnsafeBytes(of: &core.state) { old in
            withUnsafeBytes(of: &incoming) { new in core.registry.changedObservedWords(old: old, new: new) }
        }
        if _isPOD(State.self) {
            core.state = incoming
        } else {
            swap(&core.state, &incoming)
        }
        core.version &+= 1
        buffer?.syncedVersion = core.version
        guard !changes.isEmpty else { return .unheard }
        return .committed(tookTheRole: post(changes, states: nil, in: &core))
    }

    /// The copy a whole-state `_modify` (`state.x = value`) changes before it is committed: the
    /// store's reusable buffer when it is free, a fresh allocation when it is not (a nested or
    /// concurrent whole-state write of the same store), or, inside a `mutate` body of this
    /// store, the body's working copy itself. Kept out of the accessor's coroutine frame, which
    /// a state larger than a few words would make the runtime allocate on every write.
    @usableFromInline
    struct WholeStateWrite {
        @usableFromInline let state: UnsafeMutablePointer<State>
        @usableFromInline let buffer: WriteBuffer?
        @usableFromInline let isWorkingCopy: Bool

        @inlinable
        init(state: UnsafeMutablePointer<State>, buffer: WriteBuffer?, isWorkingCopy: Bool) {
            self.state = state
            self.buffer = buffer
            self.isWorkingCopy = isWorkingCopy
        }
    }

    /// Uninitialized memory for one state, reused by whole-state writes; made with the first.
    @usableFromInline
    final class WriteBuffer: @unchecked Sendable {  // `pointer` is used by whoever set `inUse`.
        @usableFromInline let pointer = UnsafeMutablePointer<State>.allocate(capacity: 1)
        @usableFromInline let inUse = Atomic<Bool>(false)
        /// For a state of plain bits (`_isPOD`): the store's version when the buffer last held
        /// exactly the store's state, so the next whole-state write may skip copying it in if no
        /// commit landed since. `nil` while a write changes the buffer, and after a write that
        /// did not commit (it threw). Read and written under the store's lock, by the holder of
        /// `inUse`. Every commit bumps the version, so a stale buffer is never used.
        @usableFromInline var syncedVersion: UInt64?

        @inlinable
        init() {}

        deinit {
            pointer.deallocate()
        }
    }

    /// Starts a whole-state write: a copy of the state, read without telling Observation (a write
    /// is not a read).
    @inlinable
    func beginWholeStateWrite() -> WholeStateWrite {
        if let working = MutationFrame.workingCopy(of: self) {
            return WholeStateWrite(state: working.assumingMemoryBound(to: State.self), buffer: nil, isWorkingCopy: true)
        }
        let buffer = lazyWriteBuffer.get { WriteBuffer() }
        let shared = buffer.inUse.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged
        let state = shared ? buffer.pointer : UnsafeMutablePointer<State>.allocate(capacity: 1)
        core.withLock { core in
            if shared, _isPOD(State.self) {
                // A buffer of plain bits still holding exactly this version needs no copy. Fast
                // path justified by "store 1,000 fields K=..., whole-state write" (an 8 KB copy a
                // write otherwise).
                defer { buffer.syncedVersion = nil }
                if buffer.syncedVersion == core.version { return }
            }
            // `initialize(to:)`, not `initialize(from:count:)`: the latter copies through the
            // runtime's generic array witness, field by field, several times slower for a state
            // with strings and arrays.
            state.initialize(to: core.state)
        }
        return WholeStateWrite(state: state, buffer: shared ? buffer : nil, isWorkingCopy: false)
    }

    /// Commits what the write changed.
    @inlinable
    func commitWholeStateWrite(_ write: WholeStateWrite) {
        guard !write.isWorkingCopy else { return }
        commitWholeState(from: &write.state.pointee, syncing: _isPOD(State.self) ? write.buffer : nil)
    }

    /// Ends a whole-state write, committed or abandoned (a throw in the middle): destroys the
    /// copy, after every lock, and frees the buffer.
    @inlinable
    func endWholeStateWrite(_ write: WholeStateWrite) {
        guard !write.isWorkingCopy else { return }
        // The store's buffer keeps a state of plain bits (nothing to destroy) for the next write.
        if write.buffer == nil || !_isPOD(State.self) { write.state.deinitialize(count: 1) }
        if let buffer = write.buffer {
            buffer.inUse.store(false, ordering: .releasing)
        } else {
            write.state.deallocate()
        }
    }
}
