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
package final class StoreStorage<State: AnyState>: @unchecked Sendable, Observable, RegistrationOwner {
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

    /// What the notifier delivers for one commit (see ``StoreNotice``).
    @usableFromInline typealias Notice = StoreNotice

    /// The states around one commit, and the key path written (for the event log). A class, so
    /// that a commit that keeps no states pays for an 8-byte `nil`, not an `Optional<State>` as
    /// large as the state (a 1,000-field state is 8 KB to zero).
    @usableFromInline
    final class States: @unchecked Sendable {  // `new` is set once, under the store's lock, before the box is shared.
        @usableFromInline let old: State
        @usableFromInline var new: State
        @usableFromInline let keyPath: String?
        /// Whether the commit is a write to an entity the state refers to (`@Ref`): its value
        /// changed (the entity only tells of writes that did), while `old` and `new` are the same
        /// state, referring to the same entity.
        @usableFromInline let isReferencedChange: Bool
        /// What `new`'s references read at the commit, when the store captures them (see
        /// ``StoreStorage/capturesReferencedValues``).
        @usableFromInline var referencedValues = ReferencedValues()

        @inlinable
        init(old: State, new: State, keyPath: String? = nil, isReferencedChange: Bool = false) {
            self.old = old
            self.new = new
            self.keyPath = keyPath
            self.isReferencedChange = isReferencedChange
        }

        /// Whether a value changed, as `==` tells (user code: called without the lock). A commit
        /// finds changes by comparing bytes, which differ for equal values too: a rebuilt `Set`,
        /// `-0.0` for `0.0`, other padding.
        @inlinable
        var valueChanged: Bool {
            isReferencedChange || old != new
        }
    }

    @usableFromInline let core: LockedState<Core>
    /// The entries the state refers to (`@Ref`), if its type has any; `nil` otherwise.
    /// Set once, by the initializer, before the storage is shared: no dynamic exclusivity check.
    @exclusivity(unchecked) @usableFromInline var references: StoreReferences?
    /// Set, for good, the first time the whole state is read through Observation's registrar (a
    /// whole-state read); until then no commit reports a whole-state change to it, which spares a
    /// store nobody reads whole (keyed reads are reported per key path) the registrar's two
    /// locked look-ups per commit. Sticky, so a tracker that read the state is never missed: its
    /// read set the flag before it read the state, under the lock a later commit takes.
    @usableFromInline let reportsWholeState = Atomic<Bool>(false)
    /// How many parties want each commit's referenced values captured (ComposeTesting's
    /// `StoreTester`s): while any does, a commit that keeps its states also keeps what its
    /// references read at that moment (``States/referencedValues``), under the lock.
    @usableFromInline let referencedValueCaptures = Atomic<Int>(0)
    /// The label given at creation; ``label`` makes the default when asked.
    @usableFromInline let givenLabel: String?
    /// Where queued `setState` / `withState` work runs.
    @usableFromInline let schedule: @Sendable (_ work: @escaping @Sendable () -> Void) -> Void

    // Made when first needed (see `LazyReference`): a store nobody observes, that never queues
    // work or runs `execute`, costs its state, its lock and this object.
    @usableFromInline let lazyNotifier = LazyReference<Relay<Notice>>()
    @usableFromInline let lazyWillChange = LazyReference<EmitterCore<State>>()
    @usableFromInline let lazyDidChange = LazyReference<EmitterCore<StateChange<State>>>()
    @usableFromInline let lazyChanged = LazyReference<EmitterCore<Void>>()
    @usableFromInline let lazyObservation = LazyReference<ObservationParts>()
    @usableFromInline let lazyStateQueue = LazyReference<StateQueue<State>>()
    @usableFromInline let lazyExecutions = LazyReference<Executions>()
    @usableFromInline let lazyWriteBuffer = LazyReference<WriteBuffer>()

    /// What a store needs to take part in Observation: the registrar, and `\.observedState`, made
    /// once (a key path literal in generic code is instantiated by the runtime, with an
    /// allocation, every time it is evaluated).
    @usableFromInline
    final class ObservationParts: @unchecked Sendable {  // Immutable; a key path is immutable too.
        @usableFromInline let registrar = ObservationRegistrar()
        @usableFromInline let observedStateKeyPath: KeyPath<StoreStorage<State>, State> = \.observedState

        @inlinable
        init() {}
    }

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
        self.givenLabel = label
        self.schedule = schedule
        setUpReferences()
    }

    deinit {
        // Empty: no notice is being delivered while the storage goes away.
        snapshot?.deallocate()
        lazyNotifier.ifMade?.stop()
        lazyExecutions.ifMade?.cancelAll()
        stopListeningToReferences()
        let (extensions, finalState) = core.withLock { core in
            defer { core.extensions = [:] }
            return (core.extensions, core.state)
        }
        for storeExtension in extensions.values { storeExtension.storeDidEnd(finalState: finalState) }
    }

    /// How the store is named in the event log.
    @usableFromInline package var label: String {
        givenLabel ?? "Store<\(State.self)>"
    }

    /// Delivers the notices of commits, one at a time, in commit order.
    @inlinable
    var notifier: Relay<Notice> {
        withNotifier { $0 }
    }

    /// Calls `body` with ``notifier``, unretained (see `LazyReference.withObject(orMake:_:)`).
    @inlinable
    func withNotifier<Result>(_ body: (Relay<Notice>) -> Result) -> Result {
        lazyNotifier.withObject(orMake: { makeNotifier() }, body)
    }

    @usableFromInline
    func makeNotifier() -> Relay<Notice> {
        let notifier = Relay<Notice>()
        // Not retained: the storage keeps the relay. The relay is inline, so its handler runs
        // only inside a call to one of this storage's methods, which keeps it alive. A weak
        // reference would give the storage a side table, which slows every retain and release
        // of it (see `LightWeakReference`).
        let storage = LightWeakReference(self)
        notifier.start { notice in
            storage.retainIfAlive()?.deliver(notice)
        }
        return notifier
    }

    /// Sent the new state after each change (``Store/willChange``).
    @inlinable
    var willChange: EmitterCore<State> {
        lazyWillChange.get { EmitterCore(label: label + ".willChange", remembersValues: false, isLogged: false) }
    }

    /// Sent the old and new states after each change (``Store/didChange``).
    @inlinable
    var didChange: EmitterCore<StateChange<State>> {
        lazyDidChange.get { EmitterCore(label: label + ".didChange", remembersValues: false, isLogged: false) }
    }

    /// A signal for every notice that changed something, for modules built on the store
    /// (persistence's autosave). Sent only while someone listens.
    @inlinable
    package var changed: EmitterCore<Void> {
        lazyChanged.get { EmitterCore<Void>(label: nil, remembersValues: false, isLogged: false) }
    }

    @inlinable
    var observation: ObservationParts {
        lazyObservation.get { ObservationParts() }
    }

    @inlinable
    var registrar: ObservationRegistrar {
        observation.registrar
    }

    @inlinable
    var observedStateKeyPath: KeyPath<StoreStorage<State>, State> {
        observation.observedStateKeyPath
    }

    /// The `setState` / `withState` queue.
    @inlinable
    var stateQueue: StateQueue<State> {
        lazyStateQueue.get {
            let queue = StateQueue<State>(schedule: schedule)
            queue.start(on: self)
            return queue
        }
    }

    /// The `execute` calls running.
    @inlinable
    var executions: Executions {
        lazyExecutions.get { Executions() }
    }

    /// Observers collected by the notice being delivered; reused so a notice does not allocate.
    /// Touched by the notifier alone, which never runs twice at once.
    @exclusivity(unchecked) @usableFromInline nonisolated(unsafe) var collected = ContiguousArray<StateObserver<State>>()

    /// Room for the copy of the state that observers without offsets read from, outside the
    /// lock: allocated on the first notice that needs it and kept until the storage goes away,
    /// initialized only while a notice is delivered, so a notice does not allocate. Touched by
    /// the holder of the notifier's role alone (handed from one holder to the next, whose
    /// transitions order their accesses).
    @exclusivity(unchecked) @usableFromInline nonisolated(unsafe) var snapshot: UnsafeMutablePointer<State>?

    // MARK: Reading

    /// The whole state. Inside a `mutate` body of this store on this thread, its working copy.
    ///
    /// - Complexity: A copy of the state.
    @inlinable
    package func read() -> State {
        if let working = MutationFrame.workingCopy(of: self) {
            return working.assumingMemoryBound(to: State.self).pointee
        }
        if !reportsWholeState.load(ordering: .relaxed) { reportsWholeState.store(true, ordering: .relaxed) }
        registrar.access(self, keyPath: observedStateKeyPath)
        return core.withLock { $0.state }
    }

    /// The value at `keyPath`, to be changed and written back (`$state.address.city = value`):
    /// not reported to Observation, which a nested write would otherwise register an observer
    /// for. A key path with no offset is evaluated on a copy after the lock is released.
    @inlinable
    func readForWriting<Value>(_ keyPath: KeyPath<State, Value>) -> Value {
        if let working = MutationFrame.workingCopy(of: self) {
            return working.assumingMemoryBound(to: State.self).pointee[keyPath: keyPath]
        }
        if let offset = MemoryLayout<State>.offset(of: keyPath) {
            return core.withLock { core in
                withUnsafeBytes(of: &core.state) { $0.load(fromByteOffset: offset, as: Value.self) }
            }
        }
        return core.withLock { $0.state }[keyPath: keyPath]
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
                // A buffer of plain bits still holding exactly this version needs no copy.
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
                let states = wantsStates ? States(old: core.state, new: core.state, keyPath: String(describing: keyPath)) : nil
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
        if let working = MutationFrame.workingCopy(of: self) {
            return try body(&working.assumingMemoryBound(to: State.self).pointee)
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
            || (lazyChanged.ifMade?.hasSubscribers ?? false) || EventLog.isEnabled
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

    /// Hands the notice of a commit to the notifier. Called under the lock, which orders
    /// notices: if nobody delivers and nothing waits, takes the notifier's role and, in the same
    /// hold of the lock, collects the notice's observers (the first half of ``deliver(_:)``),
    /// keeping the notice for this thread to deliver after the lock, without queueing anything,
    /// and returns `true`; otherwise queues the notice and returns `false`. Either way, call
    /// ``deliverPosted(tookTheRole:)`` after the lock.
    @inlinable
    func post(_ changes: ChangedWords, states: States?, in core: inout Core) -> Bool {
        if let states, states.referencedValues.isEmpty, capturesReferencedValues {
            states.referencedValues = captureReferencedValues(&core)
        }
        return withNotifier { notifier in
            guard notifier.takeTheRoleIfIdle() else {
                notifier.enqueue(Notice(changes: changes, states: states))
                return false
            }
            // The relay keeps the notice for this thread (see `Relay.taken`), made where it
            // goes: nothing is carried through the lock and back, or copied on the way.
            let filled = collect(changes, in: &core)
            notifier.keepTaken(Notice(changes: changes, states: states, filledSnapshot: filled))
            return true
        }
    }

    /// After the lock: delivers the notice ``post(_:states:in:)`` took on (then whatever was queued
    /// meanwhile), or, if it queued it, has the queue delivered unless somebody is delivering it.
    @inlinable
    func deliverPosted(tookTheRole: Bool) {
        withNotifier { notifier in
            if tookTheRole {
                notifier.handleTaken { notice in deliverCollected(notice, filledSnapshot: notice.filledSnapshot) }
            } else {
                notifier.drain()
            }
        }
    }

    /// Queues a notice that makes the observers of `words` (every observer for
    /// ``ObservedWords/anywhere``) look again.
    @usableFromInline
    func refresh(_ words: ObservedWords) {
        var changes = ChangedWords()
        if words.isIndexed {
            words.forEachRun { changes.append($0) }
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

    /// Removes an observer whose subscription was cancelled.
    @usableFromInline
    package func removeRegistration(_ registration: AnyObject) {
        removeObserver(unsafeDowncast(registration, to: StateObserver<State>.self))
    }

    /// The number of keypath observers, Observation's included.
    var observerCount: Int {
        core.withLock { $0.registry.count }
    }

    // MARK: Delivering

    /// Delivers one notice. Runs on the notifier, one notice at a time, without the lock.
    @inlinable
    func deliver(_ notice: Notice) {
        let filled = core.withLock { collect(notice.changes, in: &$0) }
        deliverCollected(notice, filledSnapshot: filled)
    }

    /// The first half of delivering a notice, under the lock, by the holder of the notifier's
    /// role: collects the observers of `changes` into ``collected``, having captured their
    /// values from the state; if an observer without offsets needs it, copies the state into
    /// ``snapshot`` and returns `true`.
    @inlinable
    func collect(_ changes: ChangedWords, in core: inout Core) -> Bool {
        // Copied for observers without offsets only, into the notifier's reusable slot (empty
        // here, so filling it under the lock releases nothing).
        let needsSnapshot = withUnsafeBytes(of: &core.state) { storage in
            core.registry.collect(changes, storage: storage.baseAddress!, into: &collected)
        }
        guard needsSnapshot else { return false }
        let slot: UnsafeMutablePointer<State>
        if let made = snapshot {
            slot = made
        } else {
            slot = .allocate(capacity: 1)
            snapshot = slot
        }
        slot.initialize(to: core.state)
        return true
    }

    /// The second half of delivering a notice, without the lock: the observers collected by
    /// ``collect(_:in:)`` read the snapshot if they need it and fire, in subscription order;
    /// then the rest of the store hears of the commit.
    @inlinable
    func deliverCollected(_ notice: Notice, filledSnapshot: Bool) {
        // The buffer belongs to the notifier, which never runs twice at once: sort it in place
        // (subscription order) and iterate it without copying, so a notice allocates nothing.
        if collected.count > 1 { collected.sort { $0.id < $1.id } }
        // One pass: an observer without offsets reads the snapshot just before it fires. A
        // handler cannot change the snapshot (a commit it makes finds the role taken and is
        // queued), so every observer reads the same state; what a key path reads through a
        // `@Ref` is the entity's current value, as it always was.
        let slot = filledSnapshot ? snapshot : nil
        for observer in collected {
            if let slot, !observer.words.isIndexed { observer.captureFromState(slot.pointee) }
            if !observer.isCancelled { observer.fire() }
        }
        // Emptied without the lock: the copy's references are released here.
        slot?.deinitialize(count: 1)
        // One at a time: `removeAll(keepingCapacity:)` goes through `replaceSubrange`, several
        // times the cost for the one or few observers a notice usually collects.
        while !collected.isEmpty { collected.removeLast() }
        guard !notice.isRefresh else { return }
        if reportsWholeState.load(ordering: .relaxed) { reportWholeStateChange() }
        // The change emitters hear of values that changed, not of bytes: a commit whose states
        // are equal is heard by nobody else. (Whoever listens makes the commit keep its states.)
        guard let erased = notice.states else { return }
        let states = unsafeDowncast(erased, to: States.self)
        guard states.valueChanged else { return }
        if let changed = lazyChanged.ifMade, changed.hasSubscribers { changed.send(()) }
        lazyWillChange.ifMade?.send(states.new)
        lazyDidChange.ifMade?.send(StateChange(old: states.old, new: states.new, referencedValues: states.referencedValues))
        if EventLog.isEnabled { logMutation(old: states.old, new: states.new, keyPath: states.keyPath) }
    }
}
