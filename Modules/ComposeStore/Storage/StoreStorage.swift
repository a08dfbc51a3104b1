import ComposeEmitters
import ComposeMachinery
import Observation
import Synchronization

/// The shared storage behind every copy of a ``Store``: the state, its observers, and the
/// notifier that tells them about changes.
///
/// ## Writes
/// Every write commits at once, under the lock: the next read on any thread sees it.
/// - A whole-state write swaps the new state in and compares the two states' bytes to find the
///   words that changed.
/// - A key path write to a stored property writes the bytes at the property's offset, and knows
///   its footprint without comparing anything. Writing the bytes already there changes nothing
///   and notifies nobody.
/// - `mutate` runs its body on a copy, outside the lock, and commits it only if no other write
///   landed meanwhile; otherwise it runs the body again on the newer state. It never loses a
///   concurrent write and never holds the lock while user code runs.
///
/// ## Notifications
/// A commit queues a notice on the notifier while still holding the lock, so notices are
/// delivered in commit order, one at a time (the emitter core's serial delivery). A notice looks
/// only at the observers indexed under the changed words, reads their values as they are when
/// the notice is delivered, and calls those whose values differ from what they last saw. An
/// observer that writes to the store is never blocked: its write commits at once and its notice
/// is delivered after the current one.
@usableFromInline
package final class StoreStorage<State: AnyState>: @unchecked Sendable, Observable {
    @usableFromInline
    struct Core: CommitGated {
        @usableFromInline var state: State
        /// Bumped by every commit that changed something; `mutate` commits only on the version it
        /// read.
        @usableFromInline var version: UInt64 = 0
        @usableFromInline var registry = ObserverRegistry<State>()
        /// The key paths read through Observation, rooted at the storage, by key path.
        @usableFromInline var observationKeyPaths: [AnyKeyPath: AnyKeyPath] = [:]
        /// The entries the state refers to (`@Ref`), which the store listens to.
        @usableFromInline var referenced: [ObjectIdentifier: any ReferenceEntry] = [:]
        /// Objects of modules built on the store, by type (see ``StoreExtension``).
        @usableFromInline var extensions: [ObjectIdentifier: any StoreExtension<State>] = [:]
        /// The thread running an irrevocable `mutate`, or 0 (see ``CommitGate``).
        @usableFromInline var gateOwner: UInt = 0
        /// Made by the first `mutate` that becomes irrevocable.
        @usableFromInline var gate: CommitGate?

        @inlinable
        init(state: State) {
            self.state = state
        }
    }

    /// What the notifier delivers for one commit. Small whatever the size of the state: the
    /// states, when kept at all, are boxed.
    @usableFromInline
    struct Notice: Sendable {
        @usableFromInline var changes: ChangedWords
        /// The states before and after, kept only when someone needs them: the change emitters
        /// or the event log.
        @usableFromInline var states: States?
        /// Not a commit: observers added while commits landed look again at `changes`, and
        /// nothing else hears of it (no `willChange`, no autosave, no Observation report).
        @usableFromInline var isRefresh: Bool

        @inlinable
        init(changes: ChangedWords, states: States? = nil, isRefresh: Bool = false) {
            self.changes = changes
            self.states = states
            self.isRefresh = isRefresh
        }
    }

    /// The states around one commit, and the key path written (for the event log).
    @usableFromInline
    final class States: Sendable {
        @usableFromInline let old: State
        @usableFromInline let new: State
        @usableFromInline let keyPath: String?

        @inlinable
        init(old: State, new: State, keyPath: String? = nil) {
            self.old = old
            self.new = new
            self.keyPath = keyPath
        }
    }

    @usableFromInline let core: LockedState<Core>
    @usableFromInline let notifier = Relay<Notice>()
    @usableFromInline let willChange: EmitterCore<State>
    @usableFromInline let didChange: EmitterCore<StateChange<State>>
    /// A signal for every notice that changed something, for modules built on the store
    /// (persistence's autosave). Sent only while someone listens.
    @usableFromInline package let changed = EmitterCore<Void>(label: nil, remembersValues: false, isLogged: false)
    @usableFromInline let registrar = ObservationRegistrar()
    @usableFromInline package let label: String
    @usableFromInline let stateQueue: StateQueue<State>
    @usableFromInline let executions = Executions()
    /// Observers collected by the notice being delivered; reused so a notice does not allocate.
    @usableFromInline let collected = HandlerState<ContiguousArray<StateObserver<State>>>([])
    /// The entries the state refers to (`@Ref`), if its type has any; `nil` otherwise.
    @usableFromInline var references: StoreReferences?
    /// `\.observedState`, made once: a key path literal in generic code is instantiated by the
    /// runtime (demangling, an allocation) every time it is evaluated.
    @usableFromInline let observedStateKeyPath: KeyPath<StoreStorage<State>, State> = \.observedState

    /// Inlinable, so the notifier's handler is formed where `State` is known and delivering a
    /// notice runs specialized code.
    ///
    /// - Parameter schedule: Where queued `setState` / `withState` work runs.
    @inlinable
    package init(
        state: State,
        label: String?,
        schedule: @escaping @Sendable (_ work: @escaping @Sendable () -> Void) -> Void = StateQueue<State>.background
    ) {
        self.core = LockedState(Core(state: state))
        self.stateQueue = StateQueue(schedule: schedule)
        self.label = label ?? "Store<\(State.self)>"
        self.willChange = EmitterCore(label: self.label + ".willChange", remembersValues: false, isLogged: false)
        self.didChange = EmitterCore(label: self.label + ".didChange", remembersValues: false, isLogged: false)
        notifier.start { [weak self] notice in
            self?.deliver(notice)
        }
        stateQueue.start(on: self)
        setUpReferences()
    }

    deinit {
        notifier.stop()
        executions.cancelAll()
        stopListeningToReferences()
        let (extensions, finalState) = core.withLock { core in
            defer { core.extensions = [:] }
            return (core.extensions, core.state)
        }
        for storeExtension in extensions.values { storeExtension.storeDidEnd(finalState: finalState) }
    }

    // MARK: Reading

    /// The whole state. Inside a `mutate` body of this store on this thread, its working copy.
    ///
    /// - Complexity: A copy of the state.
    @inlinable
    package func read() -> State {
        if let working = MutationFrame.workingCopy(of: self) {
            return working.assumingMemoryBound(to: State.self).pointee
        }
        registrar.access(self, keyPath: observedStateKeyPath)
        return core.withLock { $0.state }
    }

    /// The value at `keyPath`. Tells Observation about `keyPath` alone.
    ///
    /// A stored property is read under the lock; a key path with no offset (a computed
    /// property, user code) is evaluated on a copy after the lock is released.
    @inlinable
    func read<Value>(_ keyPath: KeyPath<State, Value>) -> Value {
        if let working = MutationFrame.workingCopy(of: self) {
            return working.assumingMemoryBound(to: State.self).pointee[keyPath: keyPath]
        }
        observationAccess(keyPath)
        if let offset = MemoryLayout<State>.offset(of: keyPath) {
            return core.withLock { core in
                withUnsafeBytes(of: &core.state) { $0.load(fromByteOffset: offset, as: Value.self) }
            }
        }
        return core.withLock { $0.state }[keyPath: keyPath]
    }

    /// The state as Observation sees a whole-state read.
    @usableFromInline
    var observedState: State {
        core.withLock { $0.state }
    }

    // MARK: Writing

    /// Replaces the whole state.
    ///
    /// - Complexity: O(*s*) in the size of the state, to find what changed.
    @inlinable
    package func write(_ newValue: consuming State) {
        if let working = MutationFrame.workingCopy(of: self) {
            working.assumingMemoryBound(to: State.self).pointee = newValue
            return
        }
        var incoming = newValue
        let wantsStates = needsStates
        while true {
            let outcome: Commit = core.withLock { core in
                if let gate = LockedState<Core>.gateToWaitFor(core) { return .gated(gate) }
                swap(&core.state, &incoming)
                let changes = withUnsafeBytes(of: &incoming) { old in
                    withUnsafeBytes(of: &core.state) { new in ChangedWords.between(old, new) }
                }
                guard !changes.isEmpty else { return .unchanged }
                core.version &+= 1
                referencesCommitted(changes, in: &core)
                notifier.enqueue(Notice(changes: changes, states: wantsStates ? States(old: incoming, new: core.state) : nil))
                return .committed
            }
            switch outcome {
            case .gated(let gate):
                gate.waitForTheIrrevocableRun()
                continue
            case .committed:
                notifier.drain()
            case .unchanged:
                break
            }
            return
        }
    }

    /// What a write's attempt to commit came to.
    @usableFromInline
    enum Commit {
        case committed
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
                let old = wantsStates ? core.state : nil
                withUnsafeMutableBytes(of: &core.state) { state in
                    swap(&state.baseAddress!.advanced(by: offset).assumingMemoryBound(to: Value.self).pointee, &outgoing)
                }
                core.version &+= 1
                let changes = ChangedWords(offset: offset, size: size)
                referencesCommitted(changes, in: &core)
                let states = old.map { States(old: $0, new: core.state, keyPath: String(describing: keyPath)) }
                notifier.enqueue(Notice(changes: changes, states: states))
                return .committed
            }
            switch outcome {
            case .gated(let gate):
                gate.waitForTheIrrevocableRun()
                continue
            case .committed:
                notifier.drain()
            case .unchanged:
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
        if let working = MutationFrame.workingCopy(of: self) {
            return try body(&working.assumingMemoryBound(to: State.self).pointee)
        }
        var changed = false
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
                swap(&core.state, &copy)
                let changes = withUnsafeBytes(of: &copy) { old in
                    withUnsafeBytes(of: &core.state) { new in ChangedWords.between(old, new) }
                }
                guard !changes.isEmpty else { return }
                core.version &+= 1
                referencesCommitted(changes, in: &core)
                notifier.enqueue(Notice(changes: changes, states: needsStates ? States(old: copy, new: core.state) : nil))
                changed = true
            }
        )
        if changed { notifier.drain() }
        return result
    }

    /// Whether a commit must keep the old and new states: the change emitters have subscribers,
    /// or the event log is on.
    @inlinable
    var needsStates: Bool {
        willChange.hasSubscribers || didChange.hasSubscribers || EventLog.isEnabled
    }

    // MARK: Observers

    /// Registers an observer built by `make` from the current state.
    ///
    /// `make` reads the observed values, and a key path can be user code (a computed property),
    /// so it runs on a snapshot without the lock. If a commit lands between the snapshot and the
    /// registration, the observer may have missed its notice: a refresh notice makes it look
    /// again, and it hears the change if its values differ from the snapshot's.
    @inlinable
    func addObserver(_ make: (_ id: UInt64, _ state: State) -> StateObserver<State>) -> StateObserver<State> {
        let (snapshot, version, id) = core.withLock { core in (core.state, core.version, core.registry.makeID()) }
        let observer = make(id, snapshot)
        let missed: Bool = core.withLock { core in
            core.registry.add(observer)
            return core.version != version
        }
        if missed { refresh(observer.words) }
        return observer
    }

    /// Queues a notice that makes the observers of `words` (every observer for `nil`) look again.
    @usableFromInline
    func refresh(_ words: [Range<Int>]?) {
        var changes = ChangedWords()
        if let words {
            for run in words { changes.append(run) }
        } else {
            changes = .all
        }
        guard !changes.isEmpty else { return }
        notifier.enqueue(Notice(changes: changes, isRefresh: true))
        notifier.drain()
    }

    @inlinable
    func removeObserver(_ observer: StateObserver<State>) {
        observer.cancelled.store(true, ordering: .releasing)
        core.withLock { $0.registry.remove(observer) }
    }

    /// The number of keypath observers, Observation's included.
    var observerCount: Int {
        core.withLock { $0.registry.count }
    }

    // MARK: Delivering

    /// Delivers one notice. Runs on the notifier, one notice at a time, without the lock.
    @inlinable
    func deliver(_ notice: Notice) {
        let snapshot: State? = core.withLock { core in
            let needsSnapshot = withUnsafeBytes(of: &core.state) { storage in
                core.registry.collect(notice.changes, storage: storage.baseAddress!, into: &collected.value)
            }
            return needsSnapshot ? core.state : nil
        }
        // The buffer belongs to the notifier, which never runs twice at once: sort it in place
        // (subscription order) and iterate it without copying, so a notice allocates nothing.
        collected.value.sort { $0.id < $1.id }
        if let snapshot {
            for observer in collected.value where observer.words == nil { observer.captureFromState(snapshot) }
        }
        for observer in collected.value where !observer.isCancelled {
            observer.fire()
        }
        collected.value.removeAll(keepingCapacity: true)
        guard !notice.isRefresh else { return }
        reportWholeStateChange()
        if changed.hasSubscribers { changed.send(()) }
        if let states = notice.states {
            willChange.send(states.new)
            didChange.send(StateChange(old: states.old, new: states.new))
            if EventLog.isEnabled { logMutation(old: states.old, new: states.new, keyPath: states.keyPath) }
        }
    }
}
