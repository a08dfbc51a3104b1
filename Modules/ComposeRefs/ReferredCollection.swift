/// The ``Referred`` handles of a ``RefCollection``, in order: `state.$specimens`.
///
/// ```swift
/// SpecimenComponent(specimen: state.$specimens[0])
/// child.state.$specimens = state.$specimens   // the child holds the same entities
/// ```
public struct ReferredCollection<Value: RefValue>: RandomAccessCollection, Sendable, Hashable {
    @usableFromInline let entries: [RefEntry<Value>]

    @inlinable
    init(entries: [RefEntry<Value>]) {
        self.entries = entries
    }

    /// A collection of the given handles' entities.
    @inlinable
    public init(_ referred: some Sequence<Referred<Value>>) {
        entries = referred.map(\.entry)
    }

    @inlinable
    public var startIndex: Int { entries.startIndex }

    @inlinable
    public var endIndex: Int { entries.endIndex }

    /// The handle of the element at `position`.
    @inlinable
    public subscript(position: Int) -> Referred<Value> {
        Referred(entry: entries[position])
    }

    /// The handle of the element with `id`, if the collection holds one.
    ///
    /// - Complexity: O(*n*).
    @inlinable
    public subscript(id id: Value.ID) -> Referred<Value>? {
        entries.first { $0.id == id }.map(Referred.init(entry:))
    }

    /// Equal when both hold the same entities in the same order.
    @inlinable
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.entries.elementsEqual(rhs.entries, by: ===)
    }

    @inlinable
    public func hash(into hasher: inout Hasher) {
        for entry in entries { hasher.combine(ObjectIdentifier(entry)) }
    }
}
