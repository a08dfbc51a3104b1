import ComposeEmitters
import ComposeMachinery
import Observation
import Synchronization

// Reading the state: whole, by key path, for writing back.

extension StoreStorage {
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
}
