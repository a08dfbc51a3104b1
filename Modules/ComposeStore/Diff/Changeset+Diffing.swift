extension Changeset where Element: Equatable {
    /// The changeset that turns `old` into `new`; an element kept with a different value (`!=`)
    /// is an update.
    ///
    /// ```swift
    /// let changeset = Changeset(from: [a, b, c], to: [c, a, d])
    /// // removals: b at 1; insertions: d at 2; moves: c from 2 to 0
    /// ```
    ///
    /// See ``Changeset`` for how elements are matched, duplicate ids and moves.
    ///
    /// - Complexity: O(*n* + *m*) expected.
    @inlinable
    public init(from old: [Element], to new: [Element]) {
        self.init(from: old, to: new, isUpdated: { $0 != $1 })
    }
}

extension Changeset {
    /// The changeset that turns `old` into `new`, with `isUpdated` deciding which kept elements
    /// changed.
    ///
    /// - Parameters:
    ///   - old: The array before.
    ///   - new: The array after.
    ///   - isUpdated: Whether a kept element changed, given its old and new values.
    /// - Complexity: O(*n* + *m*) expected.
    @inlinable
    public init(from old: [Element], to new: [Element], isUpdated: (Element, Element) throws -> Bool) rethrows {
        // Updates are found while matching, when both elements were just read: a second pass
        // over both arrays would cost more than the matching itself for large arrays.
        var updates: [Update] = []
        var matching = try IdentityMatching(old: old, new: new) { from, to in
            if try isUpdated(old[from], new[to]) {
                updates.append(Update(from: from, to: to, element: new[to]))
            }
        }
        var removals: [Removal] = []
        removals.reserveCapacity(old.count - matching.keptCount)
        for index in old.indices where matching.oldToNew[index] < 0 {
            removals.append(Removal(index: index, element: old[index]))
        }
        var insertions: [Insertion] = []
        insertions.reserveCapacity(new.count - matching.keptCount)
        var moves: [Move] = []
        var moveFinder = MoveFinder(taking: &matching)
        for index in new.indices {
            let from = Int(matching.newToOld[index])
            if from < 0 {
                insertions.append(Insertion(index: index, element: new[index]))
                continue
            }
            if moveFinder.isMoved(old: from) {
                moves.append(Move(from: from, to: index, element: new[index]))
            }
        }
        self.init(
            removals: removals,
            insertions: insertions,
            moves: moves,
            updates: updates,
            sourceCount: old.count,
            targetCount: new.count
        )
    }
}

extension Array where Element: Identifiable & Equatable {
    /// The changeset that turns `old` into this array; see ``Changeset``.
    ///
    /// ```swift
    /// let changeset = newRows.changeset(from: oldRows)
    /// ```
    ///
    /// - Complexity: O(*n* + *m*) expected.
    @inlinable
    public func changeset(from old: [Element]) -> Changeset<Element> {
        Changeset(from: old, to: self)
    }
}

/// Pairs the elements of two arrays by id, in one pass over each (Heckel's symbol table).
///
/// The table (an ``IdentityTable``) maps each id to the first unmatched old index with that id;
/// `next` chains the old indexes of an id in order (built walking the old array backwards, so
/// each index is pushed in front of the later ones), and is allocated only when an id repeats.
/// Each new occurrence takes the first unmatched old one, so duplicates match in order.
///
/// Indexes are 32-bit: the diff's time at large sizes goes to memory traffic, which this halves.
@usableFromInline
struct IdentityMatching {
    /// For each old index, the new index it matched, or -1 if removed.
    @usableFromInline var oldToNew: [Int32]
    /// For each new index, the old index it matched, or -1 if inserted.
    @usableFromInline var newToOld: [Int32]
    @usableFromInline var keptCount = 0

    /// Matches `old` and `new`, calling `matched` with each pair of indexes as it is matched,
    /// in the order of the new array.
    @inlinable
    init<Element: Identifiable>(
        old: [Element],
        new: [Element],
        matched: (_ old: Int, _ new: Int) throws -> Void
    ) rethrows {
        precondition(new.count < Int(Int32.max), "Changeset: arrays of 2^31 elements or more are not supported")
        let table = IdentityTable(capacity: old.count)
        defer { table.deallocate() }
        var next: [Int32] = []
        // Walk backwards, a batch at a time: hash the batch's ids first, then insert them. The
        // inserts' memory accesses (random, and for large arrays cache misses) are then close
        // enough together for the processor to overlap them.
        let batch = 32
        withUnsafeTemporaryAllocation(of: Int.self, capacity: batch) { hashes in
            var end = old.count
            while end > 0 {
                let start = max(0, end - batch)
                for index in start..<end { hashes[index - start] = old[index].id.hashValue }
                for index in (start..<end).reversed() {
                    // Push `index` in front of the later occurrences of its id.
                    let later: Int32 = table.withSlot(forElementAt: index, of: old, hash: hashes[index - start]) {
                        head, inserted in
                        guard !inserted else { return -1 }
                        defer { head = Int32(truncatingIfNeeded: index) }
                        return head
                    }
                    if later >= 0 {
                        if next.isEmpty { next = [Int32](repeating: -1, count: old.count) }
                        next[index] = later
                    }
                }
                end = start
            }
        }
        oldToNew = [Int32](repeating: -1, count: old.count)
        newToOld = [Int32](repeating: -1, count: new.count)
        if next.isEmpty {
            try matchUnique(old: old, new: new, table: table, matched: matched)
            return
        }
        for index in new.indices {
            // Take the first unmatched occurrence of the id, if any is left.
            let match =
                table.withSlot(for: new[index].id, in: old) { head -> Int in
                    guard head >= 0 else { return -1 }
                    let match = head
                    let following = next[Int(match)]
                    head = following >= 0 ? following : -2 - match  // exhausted, still naming the id
                    return Int(match)
                } ?? -1
            guard match >= 0 else { continue }
            record(old: match, new: index)
            try matched(match, index)
        }
    }

    /// The matching when every id occurs once in the old array (the usual case), with the
    /// same result as taking occurrences from the table, and fewer lookups: most of a list
    /// keeps its order, so an element that matches one of the few old elements after the last
    /// match (the next one, or the one after a removal or two) is taken without a lookup. An id
    /// found in the table is taken unless already matched.
    @inlinable
    mutating func matchUnique<Element: Identifiable>(
        old: [Element],
        new: [Element],
        table: IdentityTable,
        matched: (_ old: Int, _ new: Int) throws -> Void
    ) rethrows {
        var following = 0
        for index in new.indices {
            let id = new[index].id
            var match = -1
            for candidate in following..<min(following + 3, old.count)
            where oldToNew[candidate] < 0 && old[candidate].id == id {
                match = candidate
                break
            }
            if match < 0, let found = table.withSlot(for: id, in: old, { Int($0) }), oldToNew[found] < 0 {
                match = found
            }
            guard match >= 0 else { continue }
            record(old: match, new: index)
            try matched(match, index)
            following = match + 1
        }
    }

    @inlinable
    mutating func record(old: Int, new: Int) {
        // Each element is matched once: the moves below place every kept element once and stop
        // only when they have (a second match would leave them looking for it forever).
        assert(oldToNew[old] < 0 && newToOld[new] < 0, "IdentityMatching: old \(old) or new \(new) matched twice")
        oldToNew[old] = Int32(truncatingIfNeeded: new)
        newToOld[new] = Int32(truncatingIfNeeded: old)
        keptCount += 1
    }
}

/// Decides which kept elements moved, walking the new array in order (see ``Changeset``'s
/// "Moves").
///
/// Works on ranks among the kept elements: `expected` is the old rank of the first kept element
/// not yet placed. Every kept element is placed once and `expected` only moves forward, so the
/// walk is linear.
@usableFromInline
struct MoveFinder {
    /// For each old index, its rank among the kept old elements, or -1 if removed.
    @usableFromInline var oldRank: [Int32]
    /// For each old rank, the new rank of the same element.
    @usableFromInline var newRankOfOldRank: [Int32]
    /// For each old rank: 0 not placed yet, 1 placed in order, 2 moved.
    @usableFromInline var placement: [UInt8]
    @usableFromInline var expected = 0
    /// The new rank of the next kept element of the new array.
    @usableFromInline var current = 0

    /// Takes `matching`'s old-to-new array (which it turns into ranks, in place).
    @inlinable
    init(taking matching: inout IdentityMatching) {
        oldRank = []
        swap(&oldRank, &matching.oldToNew)
        var rank: Int32 = 0
        for index in oldRank.indices where oldRank[index] >= 0 {
            oldRank[index] = rank
            rank += 1
        }
        newRankOfOldRank = [Int32](repeating: 0, count: Int(rank))
        var newRank: Int32 = 0
        for old in matching.newToOld where old >= 0 {
            newRankOfOldRank[Int(oldRank[Int(old)])] = newRank
            newRank += 1
        }
        placement = [UInt8](repeating: 0, count: Int(rank))
    }

    /// Places the next kept element of the new array, whose old index is `old`; returns whether
    /// it moved.
    @inlinable
    mutating func isMoved(old: Int) -> Bool {
        let rank = Int(oldRank[old])
        defer { current += 1 }
        if placement[rank] != 0 { return placement[rank] == 2 }  // Jumped over earlier: moved.
        while expected < rank {
            // The element came forward past the run expected..<rank. Call moved whichever is
            // displaced further: this element (by the run's length), or the element expected
            // next (by how much later it appears in the new array).
            if rank - expected > Int(newRankOfOldRank[expected]) - current {
                placement[rank] = 2
                return true
            }
            placement[expected] = 2
            advanceExpected()
        }
        placement[rank] = 1
        advanceExpected()
        return false
    }

    @inlinable
    mutating func advanceExpected() {
        while expected < placement.count && placement[expected] != 0 { expected += 1 }
    }
}
