import ComposeEmitters
import ComposeMachinery
import Observation
import Synchronization

// Keypath observers: adding, refreshing and removing them.

extension StoreStorage {
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
}
