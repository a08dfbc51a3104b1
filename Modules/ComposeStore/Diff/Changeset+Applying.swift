extension Changeset {
    /// Rebuilds the new array from `old` and this changeset alone, as a list UI applies a batch
    /// update: drop the removals, place the insertions and moves at their new indexes, fill the
    /// other indexes with the remaining old elements in their old order, then apply the updates.
    ///
    /// Applied to the array it was computed from, it returns the array it was computed to.
    ///
    /// - Parameter old: The array the changeset was computed from.
    /// - Returns: The new array.
    /// - Precondition: `old` has ``sourceCount`` elements.
    /// - Complexity: O(*n* + *m*).
    public func applied(to old: [Element]) -> [Element] {
        precondition(
            old.count == sourceCount,
            "Changeset.applied(to:): the changeset was computed from \(sourceCount) elements, not \(old.count)"
        )
        var placed = [Element?](repeating: nil, count: targetCount)
        var taken = [Bool](repeating: false, count: sourceCount)
        for removal in removals { taken[removal.index] = true }
        for insertion in insertions { placed[insertion.index] = insertion.element }
        for move in moves {
            placed[move.to] = old[move.from]
            taken[move.from] = true
        }
        var next = 0
        for index in placed.indices where placed[index] == nil {
            while taken[next] { next += 1 }
            placed[index] = old[next]
            next += 1
        }
        for update in updates { placed[update.to] = update.element }
        return placed.map { $0! }
    }
}
