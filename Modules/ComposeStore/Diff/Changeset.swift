/// The difference between two arrays of identified elements: what was removed, inserted, moved
/// and updated, by index and id, in the form a list UI applies in one batch update.
///
/// ```swift
/// let changeset = Changeset(from: oldRows, to: newRows)
/// tableView.performBatchUpdates {
///     tableView.deleteRows(at: changeset.removals.map { IndexPath(row: $0.index, section: 0) }, with: .fade)
///     tableView.insertRows(at: changeset.insertions.map { IndexPath(row: $0.index, section: 0) }, with: .fade)
///     for move in changeset.moves {
///         tableView.moveRow(at: IndexPath(row: move.from, section: 0), to: IndexPath(row: move.to, section: 0))
///     }
/// }
/// // Then refresh the updated rows where they now are: `changeset.updates.map(\.to)`.
/// ```
///
/// Indexes follow UIKit's and AppKit's batch-update conventions: removals and the source of a
/// move are indexes in the old array; insertions and the destination of a move are indexes in
/// the new array. ``updates`` carries both, because a platform cannot always reload a row it also
/// moves in the same batch.
///
/// ## Which elements are the same
/// Elements are matched by `id`. An element whose id is in both arrays is kept (moved and/or
/// updated); one only in the old array is removed; one only in the new array is inserted.
///
/// Duplicate ids have a defined result: the *k*-th occurrence of an id in the new array is the
/// *k*-th occurrence in the old one. Occurrences beyond those the old array has are insertions,
/// and those the new array no longer has are removals.
///
/// ## Moves
/// The kept elements that are not in ``moves`` keep their relative order; every other kept
/// element is a move. Finding the fewest moves takes O(*n* log *n*) time, so the diff uses a
/// linear rule instead: walking the new array, when the next kept element is not the one
/// expected, it calls moved whichever of the two is displaced further (the element that came
/// forward, or the run of elements it jumped over). One element moved anywhere, a run moved as a
/// block, and swaps of neighbours give the fewest moves; a shuffle gives more than the fewest.
///
/// ## Applying
/// ``applied(to:)`` rebuilds the new array from the old one and the changeset alone, which is
/// what a list UI does; the property tests check it for thousands of random edits.
///
/// - Complexity: Computing a changeset is O(*n* + *m*) expected time and memory, for arrays of
///   *n* and *m* elements (one hash table lookup per element).
public struct Changeset<Element: Identifiable> {
    /// The elements of the old array whose id the new array no longer has, in ascending order of
    /// `index`.
    public let removals: [Removal]
    /// The elements of the new array whose id the old array did not have, in ascending order of
    /// `index`.
    public let insertions: [Insertion]
    /// The kept elements whose position relative to the other kept elements changed, in
    /// ascending order of `to`.
    public let moves: [Move]
    /// The kept elements whose value changed (moved or not), in ascending order of
    /// `to`.
    public let updates: [Update]
    /// The number of elements in the old array.
    public let sourceCount: Int
    /// The number of elements in the new array.
    public let targetCount: Int

    @inlinable
    init(
        removals: [Removal],
        insertions: [Insertion],
        moves: [Move],
        updates: [Update],
        sourceCount: Int,
        targetCount: Int
    ) {
        self.removals = removals
        self.insertions = insertions
        self.moves = moves
        self.updates = updates
        self.sourceCount = sourceCount
        self.targetCount = targetCount
    }

    /// Whether the two arrays hold the same elements in the same order.
    @inlinable
    public var isEmpty: Bool {
        removals.isEmpty && insertions.isEmpty && moves.isEmpty && updates.isEmpty
    }

    /// An element of the old array that the new array does not have; its index is in the old
    /// array.
    public typealias Removal = Indexed
    /// An element of the new array that the old array did not have; its index is in the new
    /// array.
    public typealias Insertion = Indexed
    /// A kept element whose position changed relative to the other kept elements.
    public typealias Move = Matched
    /// A kept element whose value changed.
    public typealias Update = Matched

    /// An element at an index of one of the two arrays: a ``Removal`` (old array) or an
    /// ``Insertion`` (new array).
    public struct Indexed {
        /// The element's index in its array.
        public let index: Int
        /// The element.
        public let element: Element

        @inlinable
        init(index: Int, element: Element) {
            self.index = index
            self.element = element
        }

        /// The element's id.
        @inlinable
        public var id: Element.ID { element.id }
    }

    /// A kept element, at its indexes in both arrays: a ``Move`` or an ``Update``.
    public struct Matched {
        /// The element's index in the old array.
        public let from: Int
        /// The element's index in the new array.
        public let to: Int
        /// The element as it is in the new array.
        public let element: Element

        @inlinable
        init(from: Int, to: Int, element: Element) {
            self.from = from
            self.to = to
            self.element = element
        }

        /// The element's id.
        @inlinable
        public var id: Element.ID { element.id }
    }
}

extension Changeset: Sendable where Element: Sendable {}
extension Changeset.Indexed: Sendable where Element: Sendable {}
extension Changeset.Matched: Sendable where Element: Sendable {}

extension Changeset: Equatable where Element: Equatable {}
extension Changeset.Indexed: Equatable where Element: Equatable {}
extension Changeset.Matched: Equatable where Element: Equatable {}

extension Changeset: CustomStringConvertible {
    /// A summary such as `Changeset(2 removed, 1 inserted, 0 moved, 3 updated)`.
    public var description: String {
        "Changeset(\(removals.count) removed, \(insertions.count) inserted, \(moves.count) moved, \(updates.count) updated)"
    }
}
