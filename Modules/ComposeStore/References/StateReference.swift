import ComposeEmitters
import ComposeMachinery

/// A property of a state that refers to shared data outside the store: ComposeRefs' `@Ref` and
/// `@RefCollection`.
///
/// The store cannot name the types of modules built on it; this is the extension point they
/// conform to. A store whose state has such stored properties listens to the entries they
/// refer to: when one changes, the store notifies its own observers, as if its state had
/// changed.
///
/// A conforming type must change its bytes whenever it starts referring to other entries (a
/// class reference or an array buffer that is replaced, never mutated in place): a store looks
/// for new entries only after a commit that changed the bytes of a reference property.
package protocol StateReference {
    /// The shared entries this property refers to now.
    var referencedEntries: [any ReferenceEntry] { get }

    /// Points this property at the entries of the *current* world that have its entries' ids,
    /// writing there the values `values` captured for them, or else their current values: a
    /// copy that shares nothing with the original's world (ComposeTesting's detached snapshots
    /// of a state).
    mutating func rejoinCurrentWorld(values: ReferencedValues)
}

/// Shared data that stores listen to.
@usableFromInline
package protocol ReferenceEntry: AnyObject, Sendable {
    /// Calls `listener` whenever the data changes, until removed: after each write that changed
    /// it, in the order of the writes, with the value that write committed.
    func addListener(_ listener: ReferenceListener)
    func removeListener(_ listener: ReferenceListener)
    /// The value now, boxed.
    var currentValue: any Sendable { get }
    /// The value a write committed, boxed from where ``ReferenceListener/entryChanged(_:committedValueAt:)``
    /// was told it lives.
    func value(at address: UnsafeRawPointer) -> any Sendable
}

/// A store's ear on the entries its state refers to.
///
/// It holds the store weakly, without giving it a side table (see `LightWeakReference`): an
/// entry calls its listeners after its lock, so a listener may be called while its store goes
/// away, and then does nothing.
@usableFromInline
package final class ReferenceListener: Sendable {
    @usableFromInline let listener: LightWeakReference<AnyObject>
    /// Tells the listener, alive and retained, that an entry changed, with where the value that
    /// write committed lives for the call: a closure without a context, formed where the
    /// listener's type is known.
    @usableFromInline let onChange:
        @Sendable (_ listener: AnyObject, _ entry: any ReferenceEntry, _ committed: UnsafeRawPointer) -> Void

    /// A listener that calls `onChange` while `listener` is alive.
    @usableFromInline
    package init(
        listening listener: AnyObject,
        onChange:
            @escaping @Sendable (_ listener: AnyObject, _ entry: any ReferenceEntry, _ committed: UnsafeRawPointer) ->
            Void
    ) {
        self.listener = LightWeakReference(listener)
        self.onChange = onChange
    }

    /// `entry`, which the listener listens to, changed: a write committed the value at
    /// `committed` (valid for the call; boxed with ``ReferenceEntry/value(at:)`` if kept).
    @inlinable
    package func entryChanged(_ entry: any ReferenceEntry, committedValueAt committed: UnsafeRawPointer) {
        guard let listener = listener.retainIfAlive() else { return }
        onChange(listener, entry, committed)
    }
}

/// Where a state type keeps its reference properties, found once per type.
@usableFromInline
struct ReferenceLayout: @unchecked Sendable {  // Metatypes and offsets: immutable.
    /// Each reference property's offset in the state's storage and type; `nil` if the runtime
    /// could not describe the state's fields (then `Mirror` finds them, and every commit looks
    /// for new entries, which is correct but slower).
    let fields: [(offset: Int, type: any StateReference.Type)]?
    /// The words of the state's storage that reference properties occupy.
    @usableFromInline let words: [Range<Int>]
    /// What a change of a referenced entry changes, for the store's observers: the words of the
    /// reference properties (an observer of a stored struct that holds a reference compares its
    /// values, which read the entry). Observers without an offset (a key path through a
    /// `@Ref`'s value, a computed property) are looked at on every change anyway. Everything,
    /// when the fields are unknown.
    @usableFromInline let referencedChange: ChangedWords

    init(fields: [(offset: Int, type: any StateReference.Type)]?, words: [Range<Int>]) {
        self.fields = fields
        self.words = words
        var change = ChangedWords()
        if fields == nil || words.isEmpty {
            change = .all
        } else {
            for run in words { change.append(run) }
        }
        self.referencedChange = change
    }

    /// Whether a commit that changed `changes` may have pointed a reference elsewhere.
    @inlinable
    func mayHaveRepointed(_ changes: ChangedWords) -> Bool {
        guard !words.isEmpty, !changes.everything else { return true }
        var overlaps = false
        changes.forEachRun { run in
            if words.contains(where: { $0.overlaps(run) }) { overlaps = true }
        }
        return overlaps
    }
}

/// Finds reference properties: their layout per type, their entries per value.
///
/// Reference properties are found among the state's stored properties and, recursively, those
/// of its stored properties that are structs. A reference inside an array, a dictionary, an
/// optional or an enum is not found (a `@RefCollection` is the array of references).
enum ReferenceScanner {
    private static let layouts = LockedState<[ObjectIdentifier: ReferenceLayout?]>([:])

    /// The layout of `State`'s reference properties, or `nil` if it has none.
    ///
    /// The stored properties and their offsets come from `FieldLayout` (the runtime's type
    /// metadata, nested structs included up to `FieldLayout.maximumDepth`); for a type it cannot
    /// describe (a class, say), `Mirror` on `state` tells whether it has any.
    static func layout<State>(of state: State) -> ReferenceLayout? {
        let type = ObjectIdentifier(State.self)
        if let known = layouts.withLock({ $0[type] }) { return known }
        let layout = findLayout(of: state)
        layouts.withLock { $0[type] = .some(layout) }
        return layout
    }

    private static func findLayout<State>(of state: State) -> ReferenceLayout? {
        if FieldLayout.of(State.self).isStruct {
            var fields: [(offset: Int, type: any StateReference.Type)] = []
            FieldLayout.walk(State.self) { field, offset, _ in
                if let reference = field.type as? any StateReference.Type {
                    fields.append((offset, reference))
                    return false
                }
                return field.isStruct
            }
            guard !fields.isEmpty else { return nil }
            return ReferenceLayout(fields: fields, words: referenceWords(fields))
        }
        let hasReferences = Mirror(reflecting: state).children.contains { $0.value is any StateReference }
        return hasReferences ? ReferenceLayout(fields: nil, words: []) : nil
    }

    private static func referenceWords(_ fields: [(offset: Int, type: any StateReference.Type)]) -> [Range<Int>] {
        var words: [Range<Int>] = []
        for (offset, type) in fields {
            words.append(ChangedWords.words(offset: offset, size: byteSize(type)))
        }
        return words
    }

    private static func byteSize<Reference: StateReference>(_: Reference.Type) -> Int {
        MemoryLayout<Reference>.size
    }

    /// The entries a state refers to, by identity, read from its storage at the layout's
    /// offsets: no `Mirror`, no user code, so it can run under the store's lock.
    static func entries<State>(in state: inout State, layout: ReferenceLayout) -> [ObjectIdentifier: any ReferenceEntry] {
        var entries: [ObjectIdentifier: any ReferenceEntry] = [:]
        func add(_ referenced: [any ReferenceEntry]) {
            for entry in referenced { entries[ObjectIdentifier(entry)] = entry }
        }
        guard let fields = layout.fields else {
            for child in Mirror(reflecting: state).children {
                if let reference = child.value as? any StateReference { add(reference.referencedEntries) }
            }
            return entries
        }
        withUnsafeBytes(of: &state) { storage in
            for field in fields {
                add(referencedEntries(field.type, at: storage.baseAddress! + field.offset))
            }
        }
        return entries
    }

    /// Points every reference property of `state` at the entries of the current world (see
    /// ``StateReference/rejoinCurrentWorld(values:)``). Returns `false` if the layout is unknown
    /// (the runtime could not describe the state); `state` is then unchanged.
    static func rejoinCurrentWorld<State>(_ state: inout State, layout: ReferenceLayout, values: ReferencedValues) -> Bool {
        guard let fields = layout.fields else { return false }
        withUnsafeMutableBytes(of: &state) { storage in
            for field in fields {
                rejoin(field.type, at: storage.baseAddress! + field.offset, values: values)
            }
        }
        return true
    }

    private static func rejoin<Reference: StateReference>(
        _: Reference.Type,
        at address: UnsafeMutableRawPointer,
        values: ReferencedValues
    ) {
        address.assumingMemoryBound(to: Reference.self).pointee.rejoinCurrentWorld(values: values)
    }

    private static func referencedEntries<Reference: StateReference>(
        _: Reference.Type,
        at address: UnsafeRawPointer
    ) -> [any ReferenceEntry] {
        address.load(as: Reference.self).referencedEntries
    }
}
