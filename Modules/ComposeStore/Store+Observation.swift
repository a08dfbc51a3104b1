import ComposeEmitters
import ComposeMachinery
import Observation

// The store takes part in Swift's Observation framework (and so in SwiftUI's tracking):
// - a keyed read (`$state.email`, a binding, `store.storage.read(keyPath)`) tells the registrar
//   about that key path only, rooted at the storage, and the first such read registers an
//   internal observer that reports the key path's changes to the registrar;
// - a whole-state read (the wrapped value) tells it about the whole state, which every change
//   reports.
// `withObservationTracking { ... }` therefore fires only for what its body read.

extension StoreStorage {
    /// Tells the registrar that `keyPath` was read, setting up change reports for it the first time.
    @usableFromInline
    func observationAccess<Value>(_ keyPath: KeyPath<State, Value>) {
        let known: AnyKeyPath? = core.withLock { $0.observationKeyPaths[keyPath] }
        let rooted = known ?? startReportingChanges(of: keyPath)
        // The registrar needs the key path's static type, which is known here.
        registrar.access(self, keyPath: unsafeDowncast(rooted, to: KeyPath<StoreStorage<State>, Value>.self))
    }

    /// Registers the internal observer that reports `keyPath`'s changes to the registrar, once.
    /// Its first value is read from a snapshot without the lock (a key path can be user code).
    @usableFromInline
    func startReportingChanges<Value>(of keyPath: KeyPath<State, Value>) -> AnyKeyPath {
        let (snapshot, version) = core.withLock { ($0.state, $0.version) }
        let rooted = observedStateKeyPath.appending(path: keyPath)
        let value = ObservedValue(keyPath, in: snapshot, isEqual: Self.probablyEqual)
        let registered: (AnyKeyPath, StateObserver<State>?, missed: Bool) = core.withLock { core in
            // Another thread may have registered it meanwhile: keep theirs.
            if let existing = core.observationKeyPaths[keyPath] { return (existing, nil, false) }
            core.observationKeyPaths[keyPath] = rooted
            let observer = ClosureStateObserver<State>(
                id: core.registry.makeID(),
                words: ObservedWords(value.words),
                captureFromStorage: { value.capture(fromStorage: $0) },
                captureFromState: { value.capture(from: $0) },
                // Not retained (the storage keeps its observers): an observer fires only while
                // the storage delivers a notice. A weak reference would give the storage a side
                // table (see `LightWeakReference`).
                fire: { [storage = LightWeakReference(self)] in
                    guard value.commit(), let storage = storage.retainIfAlive() else { return }
                    storage.registrar.withMutation(of: storage, keyPath: rooted) {}
                }
            )
            core.registry.add(observer)
            return (rooted, observer, core.version != version)
        }
        if registered.missed, let observer = registered.1 { refresh(observer.words) }
        return registered.0
    }

    /// Equality for values whose type may not be `Equatable`: `==` when it is, identical bits
    /// otherwise (different bits then count as a change, which at worst re-runs a view).
    @usableFromInline
    static func probablyEqual<Value>(_ lhs: Value, _ rhs: Value) -> Bool {
        if let lhs = lhs as? any Equatable { return lhs.isEqual(to: rhs) }
        return withUnsafeBytes(of: lhs) { left in withUnsafeBytes(of: rhs) { right in left.elementsEqual(right) } }
    }

    /// Reports a change of the whole state to the registrar.
    @usableFromInline
    func reportWholeStateChange() {
        registrar.withMutation(of: self, keyPath: observedStateKeyPath) {}
    }
}

extension Equatable {
    fileprivate func isEqual(to other: Any) -> Bool {
        (other as? Self) == self
    }
}
