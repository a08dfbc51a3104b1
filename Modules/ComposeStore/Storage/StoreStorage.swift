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
///
/// ## Files
/// This file holds the storage's state and the parts made when first needed; its work is split
/// by concern: `+Reading` (reads), `+WholeStateWrite` (whole-state writes), `+Commit` (keyed
/// writes, `mutate`, whether a commit is heard), `+Notification` (posting and delivering a
/// commit's notice), `+Observers` (keypath observers), and `References/StoreStorage+References`
/// (the entries `@Ref`s refer to).
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
        /// The key path of a keyed write, described only if the event log records the mutation
        /// (a description costs microseconds, and is made outside the store's lock).
        @usableFromInline let keyPath: AnyKeyPath?
        /// Whether the commit is a write to an entity the state refers to (`@Ref`): its value
        /// changed (the entity only tells of writes that did), while `old` and `new` are the same
        /// state, referring to the same entity.
        @usableFromInline let isReferencedChange: Bool
        /// What `new`'s references read at the commit, when the store captures them (see
        /// ``StoreStorage/capturesReferencedValues``).
        @usableFromInline var referencedValues = ReferencedValues()

        @inlinable
        init(old: State, new: State, keyPath: AnyKeyPath? = nil, isReferencedChange: Bool = false) {
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
}
