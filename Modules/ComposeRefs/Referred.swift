/// A light handle to an entity, passed around to hook another `@Ref` up to it.
///
/// ```swift
/// struct SpecimenComponent {
///     @Store var state: State
///
///     init(specimen: Referred<SpecimenModel>) {
///         state.$specimen = specimen
///     }
/// }
/// ```
///
/// A `Referred` keeps its entity alive, like a `@Ref`. It can also read and write the entity
/// directly, which is how a service or a test reaches shared data without a store.
///
/// Two `Referred`s are equal when they refer to the same entity.
public struct Referred<Value: RefValue>: Sendable, Identifiable, Hashable {
    @usableFromInline let entry: RefEntry<Value>

    @inlinable
    init(entry: RefEntry<Value>) {
        self.entry = entry
    }

    /// A handle to the entity of `value.id`: the live one, whose value wins, or a new one
    /// holding `value`.
    @inlinable
    public init(_ value: Value) {
        entry = RefRegistry.entry(for: value, joining: .adopt)
    }

    /// The entity's id.
    @inlinable
    public var id: Value.ID {
        entry.id
    }

    /// The entity's current value.
    ///
    /// Setting writes the whole value (last write wins); it must keep the entity's id. To change
    /// part of the value from several threads at once, use ``mutate(_:)``.
    @inlinable
    public var value: Value {
        get { entry.value }
        nonmutating set { entry.write(newValue) }
    }

    /// Changes the entity's value atomically: if another write lands while `body` runs, `body`
    /// runs again on the newer value, so no write is lost. Notifies the stores holding the
    /// entity once, if the value changed.
    ///
    /// ```swift
    /// referred.mutate { $0.visits += 1 }
    /// ```
    ///
    /// Inside `body`, reads and writes of this entity on this thread (a nested `mutate`, a
    /// `@Ref` to it written in a store's `mutate` that `body` calls) see and change the same
    /// copy, as a store's nested `mutate` does; if `body` throws, nothing changes (nested, its own
    /// changes to the copy are undone). After 4 runs lost to other writers, the other
    /// writers of the entity wait while `body` runs once more, so `body` runs at most 5 times.
    ///
    /// - Parameter body: Changes the value; it must keep the id, and may run more than once.
    /// - Returns: What `body` returned on the run that was committed.
    @inlinable
    @discardableResult
    public func mutate<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try entry.mutate(body)
    }

    @inlinable
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.entry === rhs.entry
    }

    @inlinable
    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(entry))
    }
}

extension Referred: CustomStringConvertible {
    /// `Referred(<value>)`.
    public var description: String {
        "Referred(\(String(reflecting: entry.value)))"
    }
}
