import ComposeEmitters
import ComposeStore

/// One entity: the value that every `@Ref` and `@RefCollection` element of one type and id
/// reads and writes, and the stores listening to it.
///
/// Shared by reference. The ``RefRegistry`` of its type finds it by id while it lives, without
/// keeping it alive: it goes away with the last `@Ref`, `@RefCollection` or ``Referred`` holding
/// it, and takes its registry slot with it.
@usableFromInline
final class RefEntry<Value: Referable>: ReferenceEntry, @unchecked Sendable {
    @usableFromInline
    struct Contents {
        @usableFromInline var value: Value
        /// Bumped by every write that changed the value: a write commits only on the version it
        /// compared against.
        @usableFromInline var version: UInt64 = 0
        @usableFromInline var listeners: [ReferenceListener] = []

        @inlinable
        init(value: Value) {
            self.value = value
        }
    }

    /// The entity's id; never changes. (Immutable, hence safe to share even if `Value.ID` is not
    /// declared `Sendable`.)
    @usableFromInline let id: Value.ID
    @usableFromInline let contents: LockedState<Contents>
    @usableFromInline let registry: RefRegistry<Value>

    init(value: Value, registry: RefRegistry<Value>) {
        self.id = value.id
        self.contents = LockedState(Contents(value: value))
        self.registry = registry
    }

    deinit {
        registry.remove(id, ifStill: ObjectIdentifier(self))
    }

    /// The current value.
    @inlinable
    var value: Value {
        contents.withLock { $0.value }
    }

    /// Replaces the value if it differs (`!=`), then tells the listening stores. Last write
    /// wins: concurrent writes are ordered by the lock, and none is torn.
    ///
    /// `==` is user code, so it runs outside the lock: the write commits only if no other write
    /// landed since the value it compared against, and compares again otherwise.
    ///
    /// - Returns: Whether the value changed.
    @inlinable
    @discardableResult
    func write(_ newValue: Value) -> Bool {
        precondition(
            newValue.id == id,
            "@Ref: an entity's id never changes (\(Value.self) id \(id)); assign the value to the @Ref to point it at another entity"
        )
        while true {
            let (current, version) = contents.withLock { ($0.value, $0.version) }
            if current == newValue { return false }
            if commit(newValue, ifVersion: version) { return true }
        }
    }

    /// Runs `body` on the value and writes the result, atomically: if another write lands while
    /// `body` runs, `body` runs again on the newer value, so no write is lost.
    @inlinable
    func mutate<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        while true {
            let (current, version) = contents.withLock { ($0.value, $0.version) }
            var copy = current
            let result = try body(&copy)
            precondition(
                copy.id == id,
                "@Ref: an entity's id never changes (\(Value.self) id \(id)); assign the value to the @Ref to point it at another entity"
            )
            if copy == current || commit(copy, ifVersion: version) { return result }
        }
    }

    /// Swaps `newValue` in if the version is still `version`, then calls the listeners, after
    /// the lock. The old value is released after the lock too (a release can run a deinit).
    @inlinable
    func commit(_ newValue: Value, ifVersion version: UInt64) -> Bool {
        var outgoing = newValue
        let listeners: [ReferenceListener]? = contents.withLock { contents in
            guard contents.version == version else { return nil }
            swap(&contents.value, &outgoing)
            contents.version &+= 1
            return contents.listeners
        }
        guard let listeners else { return false }
        for listener in listeners { listener.onChange() }
        return true
    }

    @usableFromInline
    func addListener(_ listener: ReferenceListener) {
        contents.withLock { $0.listeners.append(listener) }
    }

    @usableFromInline
    func removeListener(_ listener: ReferenceListener) {
        contents.withLock { contents in
            if let index = contents.listeners.lastIndex(where: { $0 === listener }) {
                contents.listeners.remove(at: index)
            }
        }
    }

    /// The number of stores listening.
    var listenerCount: Int {
        contents.withLock { $0.listeners.count }
    }
}
