/// The keypath observers of one store, indexed by the words of the state their values occupy,
/// so a change looks only at the observers of the words it touched.
///
/// Guarded by the store's lock.
@usableFromInline
struct ObserverRegistry<State> {
    /// `buckets[w]` holds the observers whose values occupy word `w` of the state.
    @usableFromInline var buckets: [ContiguousArray<StateObserver<State>>]
    /// Observers with a key path that has no offset: checked on every change.
    @usableFromInline var unindexed: ContiguousArray<StateObserver<State>> = []
    @usableFromInline var nextID: UInt64 = 0
    @usableFromInline var stamp: UInt64 = 0
    @usableFromInline var count = 0

    /// Empty: the buckets are made with the first indexed observer, so a store nobody observes
    /// pays nothing for them.
    @inlinable
    init() {
        buckets = []
    }

    @inlinable
    mutating func makeID() -> UInt64 {
        nextID &+= 1
        return nextID
    }

    @inlinable
    mutating func add(_ observer: StateObserver<State>) {
        count += 1
        guard observer.words.isIndexed else {
            unindexed.append(observer)
            return
        }
        if buckets.isEmpty { buckets = Array(repeating: [], count: (MemoryLayout<State>.size + 7) / 8) }
        observer.words.forEachRun { run in
            for word in run { buckets[word].append(observer) }
        }
    }

    /// - Complexity: O(*k*) in the number of observers sharing the observer's words.
    @inlinable
    mutating func remove(_ observer: StateObserver<State>) {
        guard observer.words.isIndexed else {
            if let index = unindexed.firstIndex(where: { $0 === observer }) {
                unindexed.remove(at: index)
                count -= 1
            }
            return
        }
        var found = false
        observer.words.forEachRun { run in
            for word in run where word < buckets.count {
                if let index = buckets[word].firstIndex(where: { $0 === observer }) {
                    buckets[word].remove(at: index)
                    found = true
                }
            }
        }
        if found { count -= 1 }
    }

    /// Whether a change of `changes` concerns any observer: the test that lets a write nobody
    /// observes skip the notification entirely.
    ///
    /// - Complexity: O(*w*) in the changed words.
    @inlinable
    func observes(_ changes: ChangedWords) -> Bool {
        if !unindexed.isEmpty { return true }
        if changes.everything { return count > 0 }
        var found = false
        changes.forEachRun { run in
            guard !found else { return }
            for word in run where word < buckets.count && !buckets[word].isEmpty {
                found = true
                return
            }
        }
        return found
    }

    /// Appends to `collected` every live observer that a change of `changes` may concern, once
    /// each, having captured its values from `storage`. Returns whether one of them needs a
    /// snapshot of the state (an observer without offsets).
    ///
    /// - Complexity: O(*w* + *k*): the changed words and the observers indexed under them.
    @inlinable
    mutating func collect(
        _ changes: ChangedWords,
        storage: UnsafeRawPointer,
        into collected: inout ContiguousArray<StateObserver<State>>
    ) -> Bool {
        stamp &+= 1
        let stamp = self.stamp
        func take(_ observer: StateObserver<State>) {
            guard observer.stamp != stamp, !observer.isCancelled else { return }
            observer.stamp = stamp
            observer.captureFromStorage(storage)
            collected.append(observer)
        }
        if changes.everything {
            for bucket in buckets {
                for observer in bucket { take(observer) }
            }
        } else {
            changes.forEachRun { run in
                for word in run where word < buckets.count {
                    for observer in buckets[word] { take(observer) }
                }
            }
        }
        for observer in unindexed { take(observer) }
        return !unindexed.isEmpty
    }
}
