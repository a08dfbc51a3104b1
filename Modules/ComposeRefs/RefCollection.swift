import ComposeStore

/// A property of a state holding an array of identified values, each shared with every other
/// `@Ref` and `@RefCollection` element of the same type and id.
///
/// ```swift
/// struct State: AnyState {
///     @RefCollection var specimens = [
///         SpecimenModel(id: "MY-MODEL-ID-FIRST", name: "Funny Circle"),
///         SpecimenModel(id: "MY-MODEL-ID-SECOND", name: "Heavy Box"),
///     ]
/// }
///
/// let first: Referred<SpecimenModel> = state.$specimens[0]
/// ```
///
/// Each element is an entity, exactly as for ``Ref``: writing an element writes its entity, and
/// every store holding the entity hears about it. The array itself (which entities, in which
/// order) belongs to this state: appending, removing and reordering change only this state,
/// and every element stays synchronised by its id.
///
/// ## Assigning
/// Assigning an array keeps, for each element, the entity of its id (the one already in this
/// collection, else the live one, else a new one) and writes the element to it if it differs
/// from the entity's value.
/// So `specimens[1].name = "x"` writes one entity, and `specimens.append(value)` joins or
/// creates one.
///
/// ## Duplicate ids
/// Two elements with the same id are one entity, so they always read the same value. When a
/// collection is created from an array with duplicates, the first occurrence's value is the
/// entity's initial value (like a declaration's value). When an array is assigned, only the
/// elements that differ from their entity's value before the assignment are written, in order:
/// changing either occurrence (`cards[1].title = "x"`) changes both, and if both were given
/// different values, the last one wins.
///
/// ## Observing
/// `$state.observeChanges(\.specimens) { changeset in ... }` hears which elements were
/// inserted, removed, moved and updated (see `Changeset`).
///
/// - Complexity: Reading the array reads each entity: O(*n*). Assigning compares each element
///   with its entity's value: O(*n*). To write one element of a long collection in O(1), write
///   through its ``Referred``: `state.$specimens[i].value = x`.
@propertyWrapper
public struct RefCollection<Value: RefValue>: Sendable {
    @usableFromInline var entries: [RefEntry<Value>]

    /// A collection of the entities of `wrappedValue`'s ids: the live ones, whose values win,
    /// or new ones.
    @inlinable
    public init(wrappedValue: [Value]) {
        entries = wrappedValue.map { RefRegistry.entry(for: $0, joining: .adopt) }
    }

    /// An empty collection.
    @inlinable
    public init() {
        entries = []
    }

    /// A collection of `referred`'s entities.
    @inlinable
    public init(_ referred: ReferredCollection<Value>) {
        entries = referred.entries
    }

    /// The entities' current values, in this collection's order.
    ///
    /// Setting keeps each element's entity by id and writes the elements that differ (see
    /// ``RefCollection``).
    public var wrappedValue: [Value] {
        get { entries.map(\.value) }
        set { assign(newValue) }
    }

    /// The collection's ``Referred`` handles: `$specimens[0]` is the first element's. Setting
    /// makes this collection hold the given entities.
    public var projectedValue: ReferredCollection<Value> {
        get { ReferredCollection(entries: entries) }
        set {
            guard !entries.elementsEqual(newValue.entries, by: ===) else { return }
            entries = newValue.entries
        }
    }

    /// Keeps each element's entity by id, then writes the elements that differ from their
    /// entity's value as it was before the assignment: so with duplicate ids, the element that
    /// was changed is the one written, whichever occurrence it is.
    private mutating func assign(_ values: [Value]) {
        var assigned: [RefEntry<Value>] = []
        assigned.reserveCapacity(values.count)
        var before: [Value] = []
        before.reserveCapacity(values.count)
        // Built only when an element is not where it was: the common edit (one element
        // changed in place) needs no table.
        var held: [Value.ID: RefEntry<Value>]?
        for (index, value) in values.enumerated() {
            let entry: RefEntry<Value>
            if index < entries.count, entries[index].id == value.id {
                entry = entries[index]
            } else {
                if held == nil {
                    held = Dictionary(entries.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
                }
                if let existing = held?[value.id] {
                    entry = existing
                } else {
                    entry = RefRegistry.entry(for: value, joining: .adopt)
                    held?[value.id] = entry
                }
            }
            assigned.append(entry)
            before.append(entry.value)
        }
        for index in values.indices where values[index] != before[index] {
            assigned[index].write(values[index])
        }
        entries = assigned
    }
}

extension RefCollection: StateReference {
    package var referencedEntries: [any ReferenceEntry] {
        entries
    }

    package mutating func rejoinCurrentWorld(values: ReferencedValues) {
        entries = entries.map { entry in
            RefRegistry.entry(for: values[entry] as? Value ?? entry.value, joining: .write)
        }
    }
}

extension RefCollection: Equatable {
    /// Equal when both hold as many elements and each pair is one entity or has equal values.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.entries.elementsEqual(rhs.entries) { $0 === $1 || $0.value == $1.value }
    }
}

extension RefCollection: Codable {
    /// Encodes the values, as an array.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(wrappedValue)
    }

    /// Decodes an array and writes each value to its entity, live or new (a restored state
    /// rejoins the running program's entities).
    public init(from decoder: any Decoder) throws {
        let values = try decoder.singleValueContainer().decode([Value].self)
        entries = values.map { RefRegistry.entry(for: $0, joining: .write) }
    }
}

extension RefCollection: CustomStringConvertible {
    /// The values' description.
    public var description: String {
        String(describing: wrappedValue)
    }
}
