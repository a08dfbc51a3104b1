import ComposeStore

/// A property of a state that shares an identified value with every other `@Ref` of the same
/// type and id, in any store.
///
/// ```swift
/// struct State: AnyState {
///     @Ref var specimen = SpecimenModel(id: "MY-MODEL-ID", name: "Funny Circle")
/// }
///
/// // A child component's state starts empty and adopts the parent's entity:
/// struct ChildState: AnyState {
///     @Ref var specimen: SpecimenModel
/// }
/// child.state.$specimen = parent.state.$specimen
/// ```
///
/// Values with the same type and id are one *entity*. Every `@Ref` to it reads the same value:
/// a write through one is read by all the others at once, on any thread, and every store whose
/// state holds one of them notifies its own observers (its keypath observers, `willChange`,
/// `didChange`, Observation, autosave). Writing a value equal (`==`) to the current one
/// notifies nobody.
///
/// ## Creating, assigning, adopting
/// - `@Ref var x = value`: the entity for `value.id`. If it is already alive, the `@Ref` joins
///   it and the live value wins: a declaration's value is only the entity's initial value.
/// - `@Ref var x: Value`: empty until assigned a value or a ``Referred``. Reading an empty
///   `@Ref` stops the program with a message naming the type.
/// - `x = value` writes `value` to the entity of `value.id` (last write wins). A value with
///   another id points the `@Ref` at that entity first.
/// - `$x` is a ``Referred``, a light handle to the entity; `$x = referred` points this `@Ref`
///   at `referred`'s entity.
///
/// ## Concurrency
/// Each write replaces the whole value atomically: concurrent writes are ordered, the last one
/// wins, and no reader sees a torn value. `x.name = "y"` reads the value, changes a copy and
/// writes it back; from several threads at once, use ``Referred/mutate(_:)`` on `$x`, which
/// never loses a concurrent write.
///
/// ## Values outside the state's storage
/// The value lives in the entity, not in the state: copies of a state share it, and the old and
/// new states of a `didChange` that a referenced write caused read the same (new) value. A
/// write through a `@Ref` inside a store's `mutate` reaches the entity at once, and is not
/// undone if the body throws.
///
/// ## Lifetime
/// An entity lives while a `@Ref`, a `@RefCollection` or a ``Referred`` holds it; the table
/// that finds entities by id does not keep them alive, and forgets each one when it goes away.
///
/// ## Persistence
/// A `@Ref` encodes as its value (`null` when empty). Decoding writes the decoded value to its
/// entity, live or new, so a restored state rejoins the entities of the running program.
@propertyWrapper
public struct Ref<Value: RefValue>: Sendable {
    @usableFromInline var entry: RefEntry<Value>?

    /// A `@Ref` to the entity of `wrappedValue.id`: the live one, whose value wins, or a new one
    /// holding `wrappedValue`.
    @inlinable
    public init(wrappedValue: Value) {
        entry = RefRegistry.entry(for: wrappedValue, joining: .adopt)
    }

    /// An empty `@Ref`, to be given a value or a ``Referred`` before it is read.
    @inlinable
    public init() {
        entry = nil
    }

    /// A `@Ref` to `referred`'s entity.
    @inlinable
    public init(_ referred: Referred<Value>) {
        self.init(entry: referred.entry)
    }

    @inlinable
    init(entry: RefEntry<Value>) {
        self.entry = entry
    }

    /// The entity's current value.
    ///
    /// Setting writes the value to the entity of its id (see ``Ref``).
    @inlinable
    public var wrappedValue: Value {
        get { boundEntry.value }
        set {
            if let entry, entry.id == newValue.id {
                entry.write(newValue)
            } else {
                entry = RefRegistry.entry(for: newValue, joining: .write)
            }
        }
    }

    /// A ``Referred`` to the entity, for another `@Ref` to adopt; setting points this `@Ref` at
    /// the given entity.
    @inlinable
    public var projectedValue: Referred<Value> {
        get { Referred(entry: boundEntry) }
        set {
            guard newValue.entry !== entry else { return }
            entry = newValue.entry
        }
    }

    /// Whether this `@Ref` refers to an entity yet (`false` for `@Ref var x: Value` before it
    /// is assigned).
    @inlinable
    public var isEmpty: Bool {
        entry == nil
    }

    @inlinable
    var boundEntry: RefEntry<Value> {
        guard let entry else {
            preconditionFailure("@Ref<\(Value.self)> was read before it was given a value or a Referred")
        }
        return entry
    }
}

extension Ref: StateReference {
    package var referencedEntries: [any ReferenceEntry] {
        entry.map { [$0] } ?? []
    }

    package mutating func rejoinCurrentWorld(values: ReferencedValues) {
        guard let entry else { return }
        let value = values[entry] as? Value ?? entry.value
        self.entry = RefRegistry.entry(for: value, joining: .write)
    }
}

extension Ref: Equatable {
    /// Two `@Ref`s are equal if both are empty, or if their values are equal (two `@Ref`s to
    /// one entity always are).
    @inlinable
    public static func == (lhs: Self, rhs: Self) -> Bool {
        switch (lhs.entry, rhs.entry) {
        case (nil, nil): true
        case (let left?, let right?): left === right || left.value == right.value
        default: false
        }
    }
}

extension Ref: CustomStringConvertible, CustomDebugStringConvertible {
    /// The value's description, or `empty`.
    public var description: String {
        entry.map { String(describing: $0.value) } ?? "empty"
    }

    public var debugDescription: String {
        entry.map { "Ref(\(String(reflecting: $0.value)))" } ?? "Ref(empty)"
    }
}
