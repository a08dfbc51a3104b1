import ComposeStore
import ComposeTestSupport
import Testing

@Suite struct ChangesetTests {
    // MARK: Cases with one right answer

    @Test func identicalArraysGiveAnEmptyChangeset() {
        let rows = Row.rows(5)
        let changeset = Changeset(from: rows, to: rows)
        #expect(changeset.isEmpty)
        #expect(Changeset(from: [Row](), to: []).isEmpty)
    }

    @Test func insertionsAndRemovalsByIndexAndID() {
        let old = [Row(id: 1), Row(id: 2), Row(id: 3)]
        let new = [Row(id: 1), Row(id: 4), Row(id: 3), Row(id: 5)]
        let changeset = Changeset(from: old, to: new)
        #expect(changeset.removals.map(\.index) == [1])
        #expect(changeset.removals.map(\.id) == [2])
        #expect(changeset.insertions.map(\.index) == [1, 3])
        #expect(changeset.insertions.map(\.id) == [4, 5])
        #expect(changeset.moves.isEmpty)
        #expect(changeset.updates.isEmpty)
        #expect(changeset.applied(to: old) == new)
    }

    @Test func everythingRemovedOrEverythingInserted() {
        let rows = Row.rows(4)
        let removed = Changeset(from: rows, to: [])
        #expect(removed.removals.map(\.index) == [0, 1, 2, 3])
        #expect(removed.applied(to: rows) == [])
        let inserted = Changeset(from: [], to: rows)
        #expect(inserted.insertions.map(\.index) == [0, 1, 2, 3])
        #expect(inserted.applied(to: []) == rows)
    }

    @Test(arguments: [
        // (old order, new order, the element that should be the one move)
        ([0, 1, 2, 3, 4], [4, 0, 1, 2, 3], 4),  // last to first
        ([0, 1, 2, 3, 4], [1, 2, 3, 4, 0], 0),  // first to last
        ([0, 1, 2, 3, 4], [0, 2, 1, 3, 4], 1),  // neighbours swapped
        ([0, 1, 2, 3, 4], [0, 1, 3, 4, 2], 2),  // middle to the end
        ([0, 1, 2, 3, 4], [0, 3, 1, 2, 4], 3),  // middle forward
    ])
    func oneElementMovedIsOneMove(old: [Int], new: [Int], moved: Int) {
        let changeset = Changeset(from: old.map { Row(id: $0) }, to: new.map { Row(id: $0) })
        #expect(changeset.moves.map(\.id) == [moved])
        #expect(changeset.moves.first?.from == old.firstIndex(of: moved))
        #expect(changeset.moves.first?.to == new.firstIndex(of: moved))
        #expect(changeset.insertions.isEmpty && changeset.removals.isEmpty && changeset.updates.isEmpty)
    }

    @Test func aBlockMovedIsTheBlockOrItsComplement() {
        let old = Row.rows(10)
        // The first three to the end: three moves, not seven.
        let toEnd = Array(old[3...] + old[..<3])
        #expect(Changeset(from: old, to: toEnd).moves.map(\.id) == [0, 1, 2])
        // The last three to the front: three moves.
        let toFront = Array(old[7...] + old[..<7])
        #expect(Changeset(from: old, to: toFront).moves.map(\.id) == [7, 8, 9])
    }

    @Test func updatesCarryBothIndexesAndTheNewValue() {
        let old = [Row(id: 1), Row(id: 2), Row(id: 3)]
        let new = [Row(id: 3, value: 9), Row(id: 1), Row(id: 2, value: 7)]
        let changeset = Changeset(from: old, to: new)
        #expect(changeset.updates.map(\.id) == [3, 2])
        #expect(changeset.updates.map(\.from) == [2, 1])
        #expect(changeset.updates.map(\.to) == [0, 2])
        #expect(changeset.updates.map(\.element.value) == [9, 7])
        #expect(changeset.moves.map(\.id) == [3])  // moved and updated: in both lists
        #expect(changeset.applied(to: old) == new)
    }

    @Test func aCustomUpdateTest() {
        let old = [Row(id: 1, value: 1)]
        let new = [Row(id: 1, value: 2)]
        #expect(Changeset(from: old, to: new, isUpdated: { _, _ in false }).isEmpty)
        #expect(new.changeset(from: old).updates.count == 1)
    }

    @Test func duplicateIDsMatchInOrder() {
        // Ids 7 appear three times before and twice after: the first two occurrences are kept
        // (matched in order), the third is removed.
        let old = [Row(id: 7, value: 0), Row(id: 1), Row(id: 7, value: 1), Row(id: 7, value: 2)]
        let new = [Row(id: 1), Row(id: 7, value: 0), Row(id: 7, value: 1)]
        let changeset = Changeset(from: old, to: new)
        #expect(changeset.removals.map(\.index) == [3])
        #expect(changeset.updates.isEmpty)
        #expect(changeset.applied(to: old) == new)

        // More occurrences after than before: the extra ones are insertions.
        let grown = [Row(id: 7, value: 0), Row(id: 7, value: 5), Row(id: 1), Row(id: 7, value: 1), Row(id: 7, value: 2)]
        let growing = Changeset(from: old, to: grown)
        #expect(growing.insertions.map(\.index) == [4])
        #expect(growing.updates.map(\.to) == [1, 3])  // 2nd and 3rd occurrences got new values
        #expect(growing.applied(to: old) == grown)
    }

    @Test func anIDThatRepeatsOnlyInTheNewArrayIsInsertedAgain() {
        // The old array's ids are unique (the matching's common case); the new one repeats one.
        let old = [Row(id: 1)]
        let doubled = Changeset(from: old, to: [Row(id: 1), Row(id: 1)])
        #expect(doubled.insertions.map(\.index) == [1])
        #expect(doubled.applied(to: old) == [Row(id: 1), Row(id: 1)])

        let rows = Row.rows(4)
        let repeated = [rows[0], rows[1], rows[3], rows[1], rows[2], rows[3]]
        let changeset = Changeset(from: rows, to: repeated)
        #expect(changeset.insertions.count == 2)
        #expect(changeset.removals.isEmpty)
        #expect(changeset.applied(to: rows) == repeated)
    }

    @Test func applyingToTheWrongArrayIsAClearError() async {
        await #expect(processExitsWith: .failure) {
            _ = Changeset(from: Row.rows(3), to: Row.rows(2)).applied(to: Row.rows(5))
        }
    }

    // MARK: Properties, for thousands of random edits

    @Test(arguments: 0..<8)
    func applyingTheChangesetGivesTheNewArray(seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        var nextID = 1_000
        for _ in 0..<500 {
            let size = Int.random(in: 0...40, using: &generator)
            // Few distinct ids now and then, so duplicates are common.
            let idRange = Bool.random(using: &generator) ? size + 1 : max(1, size / 4)
            let old: [Row]
            if Bool.random(using: &generator) {
                old = (0..<size).map { _ in Row(id: Int.random(in: 0..<idRange, using: &generator)) }
            } else {
                old = Row.rows(size)  // Unique ids: the matching's common case.
            }
            let edits = Int.random(in: 0...12, using: &generator)
            let new = RandomEdits.apply(edits, to: old, nextID: &nextID, using: &generator)
            let changeset = Changeset(from: old, to: new)
            checkInvariants(changeset, old: old, new: new)
        }
    }

    @Test func largeScatteredEdits() {
        var generator = SplitMix64(seed: 42)
        var nextID = 1_000_000
        var old = Row.rows(5_000)
        for _ in 0..<20 {
            let new = RandomEdits.scattered(old, fraction: 0.1, nextID: &nextID, using: &generator)
            let changeset = Changeset(from: old, to: new)
            checkInvariants(changeset, old: old, new: new)
            old = new
        }
    }

    @Test func oneRandomMoveIsOneMove() {
        var generator = SplitMix64(seed: 7)
        var nextID = 100
        for _ in 0..<1_000 {
            let old = Row.rows(Int.random(in: 2...30, using: &generator))
            let new = RandomEdits.apply(1, to: old, kinds: [.move], nextID: &nextID, using: &generator)
            let changeset = Changeset(from: old, to: new)
            #expect(changeset.moves.count == (old == new ? 0 : 1), "\(old.map(\.id)) -> \(new.map(\.id))")
        }
    }

    /// What every changeset must satisfy: it rebuilds the new array, its lists are sorted, it
    /// accounts for every element once, and it reports exactly the changed values as updates.
    func checkInvariants(_ changeset: Changeset<Row>, old: [Row], new: [Row], sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(changeset.applied(to: old) == new, sourceLocation: sourceLocation)
        #expect(changeset.removals.map(\.index).isStrictlyIncreasing, sourceLocation: sourceLocation)
        #expect(changeset.insertions.map(\.index).isStrictlyIncreasing, sourceLocation: sourceLocation)
        #expect(changeset.moves.map(\.to).isStrictlyIncreasing, sourceLocation: sourceLocation)
        #expect(changeset.updates.map(\.to).isStrictlyIncreasing, sourceLocation: sourceLocation)
        let kept = old.count - changeset.removals.count
        #expect(kept == new.count - changeset.insertions.count, sourceLocation: sourceLocation)
        // Kept as many of each id as both arrays have: duplicates match in order.
        let oldCounts = Dictionary(old.map { ($0.id, 1) }, uniquingKeysWith: +)
        let newCounts = Dictionary(new.map { ($0.id, 1) }, uniquingKeysWith: +)
        let removedCounts = Dictionary(changeset.removals.map { ($0.id, 1) }, uniquingKeysWith: +)
        for (id, count) in oldCounts {
            let keptCount = count - removedCounts[id, default: 0]
            #expect(keptCount == min(count, newCounts[id, default: 0]), sourceLocation: sourceLocation)
        }
        #expect(changeset.moves.count <= kept, sourceLocation: sourceLocation)
        for update in changeset.updates {
            #expect(
                old[update.from].id == new[update.to].id && old[update.from] != new[update.to], sourceLocation: sourceLocation)
        }
    }
}

extension Array where Element: Comparable {
    fileprivate var isStrictlyIncreasing: Bool {
        zip(self, dropFirst()).allSatisfy { $0 < $1 }
    }
}
