import ComposeMachinery
import ComposeStore

/// One entity: the value that every `@Ref` and `@RefCollection` element of one type and id
/// reads and writes, and the stores listening to it.
///
/// Shared by reference. The ``RefRegistry`` of its type finds it by id while it lives, without
/// keeping it alive: it goes away with the last `@Ref`, `@RefCollection` or ``Referred`` holding
/// it, and takes its registry slot with it.
@usableFromInline
final class RefEntry<Value: RefValue>: ReferenceEntry, @unchecked Sendable {
    @usableFromInline
    struct Contents: CommitGated {
        @usableFromInline var value: Value
        /// Bumped by every write that changed the value: a write commits only on the version it
        /// compared against.
        @usableFromInline var version: UInt64 = 0
        @usableFromInline var listeners: [ReferenceListener] = []
        /// The thread running an irrevocable `mutate`, or 0 (see `CommitGate`).
        @usableFromInline var gateOwner: UInt = 0
        /// Made by the first `mutate` that becomes irrevocable.
        @usableFromInline var gate: CommitGate?

        @inlinable
        init(value: Value) {
            self.value = value
        }
    }

    /// The entity's id; never changes. (Immutable, hence safe to share even if `Value.ID` is not
    /// declared `Sendable`.)
    @usableFromInline let id: Value.ID
    @usableFromInline let contents: LockedState<Contents>
    @usableFromInline let registry: RefRegistry<Value>
    /// Tells the listening stores of each write, in the order of the writes, with the value it
    /// committed: a write queues its value under the lock and drains after it (the listeners
    /// take their stores' locks, and a store takes an entry's lock inside its own). Made with the
    /// first listener.
    @usableFromInline let lazyAnnouncer = LazyReference<Relay<Value>>()

    init(value: Value, registry: RefRegistry<Value>) {
        self.id = value.id
        self.contents = LockedState(Contents(value: value))
        self.registry = registry
    }

    deinit {
        registry.remove(id, ifStill: self)
    }

    /// The current value; inside a ``mutate(_:)`` body of this entity on this thread, the body's
    /// working copy.
    @inlinable
    var value: Value {
        if let working = MutationFrame.workingCopy(of: self) { return working.assumingMemoryBound(to: Value.self).pointee }
        return contents.withLock { $0.value }
    }

    /// Replaces the value if it differs (`!=`), then tells the listening stores. Last write
    /// wins: concurrent writes are ordered by the lock, and none is torn.
    ///
    /// `==` is user code, so it runs outside the lock: the write commits only if no other write
    /// landed since the value it compared against, and compares again otherwise (through the
    /// same bounded loop as ``mutate(_:)``).
    ///
    /// - Returns: Whether the value changed.
    @inlinable
    @discardableResult
    func write(_ newValue: Value) -> Bool {
        checkID(of: newValue)
        if let working = MutationFrame.workingCopy(of: self) {
            // Inside this entity's `mutate` on this thread: part of that run (see `mutate`).
            let copy = working.assumingMemoryBound(to: Value.self)
            guard copy.pointee != newValue else { return false }
            copy.pointee = newValue
            return true
        }
        return update { current in current == newValue ? (nil, false) : (newValue, true) }
    }

    /// Runs `body` on the value and writes the result, atomically: if another write lands while
    /// `body` runs, `body` runs again on the newer value, so no write is lost. After
    /// `CommitGate.optimisticRuns` lost runs, other writers of this entity wait while `body`
    /// runs once more, so it commits after a bounded number of runs; no lock is held while
    /// `body` (or `==`) runs.
    ///
    /// While `body` runs, reads and writes of this entity on this thread (a nested `mutate`, a
    /// `@Ref` of a store written in a store's `mutate` that `body` calls) see and change the
    /// body's working copy, as a store's nested `mutate` does: they are part of this run, and
    /// cannot make it lose its run (which, run after run, would never end).
    @inlinable
    func mutate<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        if let working = MutationFrame.workingCopy(of: self) {
            let result = try MutationFrame.joining(working, as: Value.self, body)
            checkID(of: working.assumingMemoryBound(to: Value.self).pointee)
            return result
        }
        return try update { current in
            var copy = current
            let result = try withUnsafeMutablePointer(to: &copy) { pointer in
                try MutationFrame.with(self, workingCopy: UnsafeMutableRawPointer(pointer)) { try body(&pointer.pointee) }
            }
            checkID(of: copy)
            return (copy == current ? nil : copy, result)
        }
    }

    /// Traps if `value` is not this entity's: an entity's id never changes.
    @inlinable
    func checkID(of value: Value) {
        precondition(
            value.id == id,
            "@Ref: an entity's id never changes (\(Value.self) id \(id)); assign the value to the @Ref to point it at another entity"
        )
    }

    /// The loop of ``write(_:)`` and ``mutate(_:)``: `body` gives the new value (`nil` for no
    /// change) from the current one, without the lock; it is committed if no other write landed
    /// meanwhile, and `body` runs again otherwise (the shared optimistic loop,
    /// `runOptimistically`, gated after `CommitGate.optimisticRuns` lost runs). The listeners
    /// are called after the lock, and so is the old value released (a release can run a
    /// deinit).
    @inlinable
    func update<Result>(_ body: (Value) throws -> (Value?, Result)) rethrows -> Result {
        var changed = false
        var announced = false
        let result = try runOptimistically(
            on: contents,
            snapshot: { $0.value },
            body: { value in
                let (newValue, result) = try body(value)
                changed = newValue != nil
                if let newValue { value = newValue }
                return result
            },
            commit: { contents, value in
                guard changed else { return }
                swap(&contents.value, &value)
                contents.version &+= 1
                // In the lock's order; never calls a listener (a relay's queue is safe under any lock).
                guard !contents.listeners.isEmpty, let announcer = lazyAnnouncer.ifMade else { return }
                announcer.enqueue(contents.value)
                announced = true
            }
        )
        if announced { lazyAnnouncer.ifMade?.drain() }
        return result
    }

    /// Tells the listeners of a write's committed value; run by the announcer, one write at a
    /// time, in the order of the writes.
    @usableFromInline
    func announce(_ value: Value) {
        let listeners = contents.withLock { $0.listeners }
        withUnsafePointer(to: value) { committed in
            for listener in listeners { listener.entryChanged(self, committedValueAt: UnsafeRawPointer(committed)) }
        }
    }

    @usableFromInline
    func addListener(_ listener: ReferenceListener) {
        // Made before the listener is added, under no lock of this entry: a write that finds a
        // listener finds the announcer.
        _ = lazyAnnouncer.get {
            let announcer = Relay<Value>()
            // Not retained (a strong reference would be a cycle): the relay is inline and
            // drained only by this entry's `update`, which its caller keeps alive.
            let entry = LightWeakReference(self)
            announcer.start { value in entry.retainIfAlive()?.announce(value) }
            return announcer
        }
        contents.withLock { $0.listeners.append(listener) }
    }

    @usableFromInline
    var currentValue: any Sendable {
        value
    }

    @usableFromInline
    func value(at address: UnsafeRawPointer) -> any Sendable {
        address.load(as: Value.self)
    }

    @usableFromInline
    func removeListener(_ listener: ReferenceListener) {
        contents.withLock { contents in
            if let index = contents.listeners.lastIndex(where: { $0 === listener }) {
                contents.listeners.remove(at: index)
            }
        }
    }

    /// The number of stores listening.
    var listenerCount: Int {
        contents.withLock { $0.listeners.count }
    }
}
