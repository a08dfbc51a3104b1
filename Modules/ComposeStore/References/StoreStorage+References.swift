import ComposeEmitters
import ComposeMachinery
import Synchronization

/// A store's listener on the entries its state refers to, and where its state keeps them.
@usableFromInline
final class StoreReferences: Sendable {
    @usableFromInline let listener: ReferenceListener
    @usableFromInline let layout: ReferenceLayout

    @usableFromInline
    init(listener: ReferenceListener, layout: ReferenceLayout) {
        self.listener = listener
        self.layout = layout
    }
}

extension StoreStorage {
    /// Listens to the entries `core.state` refers to, if its type has reference properties.
    ///
    /// Inlinable, so the listener is formed where `State` is known and a referenced change runs
    /// specialized code.
    @inlinable
    func setUpReferences() {
        guard let layout = core.withLock({ Self.referenceLayout(of: $0.state) }) else { return }
        let references = StoreReferences(
            listener: ReferenceListener(listening: self) { storage, entry, committed in
                unsafeDowncast(storage, to: StoreStorage<State>.self).referencedEntryChanged(entry, committedValueAt: committed)
            },
            layout: layout
        )
        self.references = references
        core.withLock { relisten(&$0, references) }
    }

    @usableFromInline
    static func referenceLayout(of state: State) -> ReferenceLayout? {
        ReferenceScanner.layout(of: state)
    }

    /// Under the store's lock, in a commit that changed `changes`: if it changed a reference
    /// property's bytes, listens to exactly the entries the new state refers to.
    ///
    /// Done before the commit's notice is queued, so the store listens to a new entry before
    /// any observer reads it: a write to the entry after that read is heard.
    @inlinable
    func referencesCommitted(_ changes: ChangedWords, in core: inout Core) {
        guard let references, references.layout.mayHaveRepointed(changes) else { return }
        relisten(&core, references)
    }

    @usableFromInline
    func relisten(_ core: inout Core, _ references: StoreReferences) {
        let found = ReferenceScanner.entries(in: &core.state, layout: references.layout)
        for (identity, entry) in core.referenced where found[identity] == nil {
            entry.removeListener(references.listener)
        }
        for (identity, entry) in found where core.referenced[identity] == nil {
            entry.addListener(references.listener)
        }
        core.referenced = found
    }

    /// Stops listening (the store is going away).
    func stopListeningToReferences() {
        guard let references else { return }
        for entry in core.withLock({ $0.referenced.values }) { entry.removeListener(references.listener) }
    }

    /// A referenced entry changed: the state's bits are the same, but what it reads is not.
    /// The observers that can read the entry look again (those without an offset, and those of
    /// the words where the reference properties live: a referenced value lives outside the
    /// state's storage, so no word of it changed), and hear about it if their values differ.
    /// An observer of a stored property elsewhere cannot read the entry, and is left alone.
    ///
    /// Entries tell of their writes in the order of the writes, each with the value it committed
    /// (at `committed`, for the call): a store that captures referenced values records that one.
    @inlinable
    func referencedEntryChanged(_ entry: any ReferenceEntry, committedValueAt committed: UnsafeRawPointer) {
        // The change read out of `references` without holding on to it (no retain, no release).
        guard let changes = references?.layout.referencedChange else { return }
        let wantsStates = needsStates
        // Queued under the lock, like a commit's notice, so notices stay in commit order. The
        // version stays: the state did not change, and a `mutate` need not run again.
        let posted: Bool? = core.withLock { core in
            guard isHeard(changes, in: &core, keepingStates: wantsStates) else { return nil }
            let states = wantsStates ? States(old: core.state, new: core.state, isReferencedChange: true) : nil
            if let states, capturesReferencedValues {
                states.referencedValues = captureReferencedValues(&core)
                states.referencedValues[entry] = entry.value(at: committed)
            }
            return post(changes, states: states, in: &core)
        }
        if let posted { deliverPosted(tookTheRole: posted) }
    }

    /// Whether commits capture what the state's references read (see ``referencedValueCaptures``).
    @inlinable
    var capturesReferencedValues: Bool {
        references != nil && referencedValueCaptures.load(ordering: .relaxed) > 0
    }

    /// Starts capturing each commit's referenced values, until the returned closure is called.
    package func captureReferencedValues() -> @Sendable () -> Void {
        referencedValueCaptures.add(1, ordering: .relaxed)
        return { [self] in _ = referencedValueCaptures.subtract(1, ordering: .relaxed) }
    }

    /// What the state's references read now: each entry's current value. Called under the lock
    /// (an entry's lock is taken inside a store's, never the other way).
    @usableFromInline
    func captureReferencedValues(_ core: inout Core) -> ReferencedValues {
        var values = ReferencedValues()
        for entry in core.referenced.values { values[entry] = entry.currentValue }
        return values
    }
}

extension StoreStorage {
    /// A copy of `state` whose reference properties point at entries of `world`, holding the
    /// values `values` captured for them, or else the values they read now: writing to the
    /// copy's references never reaches the store's entities. ComposeTesting's `StoreTester`
    /// keeps its expected states this way.
    package func detachedCopy(of state: State, in world: ComposeWorld, values: ReferencedValues = ReferencedValues()) -> State {
        guard let references else { return state }
        var copy = state
        _ = world.run { ReferenceScanner.rejoinCurrentWorld(&copy, layout: references.layout, values: values) }
        return copy
    }
}

/// Something that refers to shared entries, for leak checks.
package protocol ReferenceHolder: AnyObject {
    /// The entries referred to now.
    var referencedObjects: [AnyObject] { get }
}

extension StoreStorage: ReferenceHolder {
    package var referencedObjects: [AnyObject] {
        core.withLock { $0.referenced.values.map { $0 as AnyObject } }
    }
}
