import ComposeMachinery

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
    /// The words with at least one observer (the non-empty buckets), ascending: what a
    /// whole-state write compares when nothing else listens (see ``changedObservedWords(old:new:)``).
    @usableFromInline var observedWords: ContiguousArray<Int32> = []
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
            for word in run {
                if buckets[word].isEmpty { insertObservedWord(word) }
                buckets[word].append(observer)
            }
        }
    }

    /// - Complexity: O(*w*) in the observed words.
    @inlinable
    mutating func insertObservedWord(_ word: Int) {
        let word = Int32(truncatingIfNeeded: word)
        var low = 0
        var high = observedWords.count
        while low < high {
            let middle = (low + high) / 2
            if observedWords[middle] < word { low = middle + 1 } else { high = middle }
        }
        observedWords.insert(word, at: low)
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
                    if buckets[word].isEmpty, let slot = observedWords.firstIndex(of: Int32(truncatingIfNeeded: word)) {
                        observedWords.remove(at: slot)
                    }
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

    /// Whether a whole-state write may compare only the observed words: every observer has
    /// offsets, and they watch at most one word in eight of the state. Beyond some share, reading
    /// the observed words one by one stops paying for itself against the full comparison's
    /// block-wise `memcmp`; one in eight is a conservative bound (measured: 100 words of 1,000
    /// gain a fifth of a write), not a measured crossover.
    @inlinable
    var canCompareObservedWordsOnly: Bool {
        unindexed.isEmpty && observedWords.count * 8 <= (MemoryLayout<State>.size + 7) / 8
    }

    /// The observed words that differ between two copies of the state's storage: the part of
    /// ``ChangedWords/between(_:_:)`` any observer can hear, in O(*w*) for *w* observed words
    /// instead of O(*n*) in the size of the state.
    @inlinable
    func changedObservedWords(old: UnsafeRawBufferPointer, new: UnsafeRawBufferPointer) -> ChangedWords {
        var changes = ChangedWords()
        guard let oldBase = old.baseAddress, let newBase = new.baseAddress else { return changes }
        let size = old.count
        var run: Range<Int>? = nil
        for observed in observedWords {
            let word = Int(observed)
            let offset = word * 8
            let differs =
                offset + 8 <= size
                ? oldBase.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                    != newBase.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                : memcmp(oldBase + offset, newBase + offset, size - offset) != 0
            guard differs else { continue }
            if let current = run, current.upperBound == word {
                run = current.lowerBound..<(word + 1)
            } else {
                if let current = run { changes.append(current) }
                run = word..<(word + 1)
            }
        }
        if let run { changes.append(run) }
        return changes
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
        // By index: a `for`-`in` over the property retains its buffer around the loop, one
        // atomic pair more for the one or few observers without offsets a store usually has.
        // (The buckets keep theirs: by index, with several observers a word, the keyed write
        // measured 10% slower.)
        for index in unindexed.indices { take(unindexed[index]) }
        return !unindexed.isEmpty
    }
}
