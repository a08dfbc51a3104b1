import Synchronization

/// One keypath subscription of a store: where its values live, and how to read and compare them.
///
/// Built by ``Store/observe(_:handler:)`` where the value types are known, so it holds closures
/// rather than generic members. The store calls, during a notification:
/// 1. `captureFromStorage` under its lock, to copy the observed values out of the state's
///    storage at their byte offsets (no key path call, no user code);
/// 2. for observers that have a key path without an offset, `captureFromState` on a snapshot,
///    after the lock is released (a computed property is user code);
/// 3. `fire` after the lock is released: compares with the values last seen (`==`, user code)
///    and calls the handler if one changed.
@usableFromInline
final class StateObserver<State>: @unchecked Sendable {
    /// The order of subscription, which is the order handlers are called in.
    @usableFromInline let id: UInt64
    /// The words of the state's storage the observed values occupy, or `nil` if one of the key
    /// paths has no offset (the observer is then checked on every change).
    @usableFromInline let words: [Range<Int>]?
    @usableFromInline let captureFromStorage: (UnsafeRawPointer) -> Void
    @usableFromInline let captureFromState: (State) -> Void
    @usableFromInline let fire: () -> Void
    /// The notification that last collected this observer. Guarded by the store's lock, so the
    /// dynamic exclusivity check would only cost time.
    @exclusivity(unchecked) @usableFromInline var stamp: UInt64 = 0
    @usableFromInline let cancelled = Atomic<Bool>(false)

    @inlinable
    init(
        id: UInt64,
        words: [Range<Int>]?,
        captureFromStorage: @escaping (UnsafeRawPointer) -> Void,
        captureFromState: @escaping (State) -> Void,
        fire: @escaping () -> Void
    ) {
        self.id = id
        self.words = words
        self.captureFromStorage = captureFromStorage
        self.captureFromState = captureFromState
        self.fire = fire
    }

    @inlinable
    var isCancelled: Bool {
        cancelled.load(ordering: .acquiring)
    }
}

/// One observed value of a ``StateObserver``: its key path, where it lives, the value last seen
/// and the value just captured.
///
/// Touched only under the store's lock (at subscription, and in `captureFromStorage`) or by the
/// notifier, which never runs twice at once; the lock orders the two.
@usableFromInline
final class ObservedValue<State, Value>: @unchecked Sendable {
    @usableFromInline let keyPath: KeyPath<State, Value>
    @usableFromInline let offset: Int?
    @usableFromInline let isEqual: (Value, Value) -> Bool
    // Touched serially (see above): the dynamic exclusivity check would only cost time.
    @exclusivity(unchecked) @usableFromInline var last: Value
    @exclusivity(unchecked) @usableFromInline var pending: Value?

    @inlinable
    init(_ keyPath: KeyPath<State, Value>, in state: State, isEqual: @escaping (Value, Value) -> Bool) {
        self.keyPath = keyPath
        self.offset = MemoryLayout<State>.offset(of: keyPath)
        self.isEqual = isEqual
        self.last = state[keyPath: keyPath]
    }

    /// The words this value occupies, or `nil` without an offset.
    @inlinable
    var words: Range<Int>? {
        offset.map { ChangedWords(offset: $0, size: MemoryLayout<Value>.size).first }
    }

    @inlinable
    func capture(fromStorage base: UnsafeRawPointer) {
        if let offset { pending = base.load(fromByteOffset: offset, as: Value.self) }
    }

    @inlinable
    func capture(from state: State) {
        pending = state[keyPath: keyPath]
    }

    /// The value last seen. A method, not the property: Swift 6.3 crashes compiling a pack
    /// expansion that reads a class's property (`repeat (each values).last`).
    @inlinable
    func lastValue() -> Value {
        last
    }

    /// Takes the captured value; returns whether it differs from the last one.
    @inlinable
    func commit() -> Bool {
        guard let value = pending else { return false }
        pending = nil
        guard !isEqual(value, last) else { return false }
        last = value
        return true
    }
}
