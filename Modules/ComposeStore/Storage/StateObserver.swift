import ComposeEmitters
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
class StateObserver<State>: @unchecked Sendable {
    /// The order of subscription, which is the order handlers are called in.
    @usableFromInline let id: UInt64
    /// The words of the state's storage the observed values occupy; ``ObservedWords/anywhere``
    /// if one of the key paths has no offset (the observer is then checked on every change).
    @usableFromInline let words: ObservedWords
    /// The three steps, as capture-less closures formed where the value types are known: they
    /// run specialized code (an overridden method of a generic subclass would run the generic
    /// implementation) and cost no allocation.
    @usableFromInline let captureStorageStep: (StateObserver<State>, UnsafeRawPointer) -> Void
    @usableFromInline let captureStateStep: (StateObserver<State>, State) -> Void
    @usableFromInline let fireStep: (StateObserver<State>) -> Void
    /// The notification that last collected this observer. Guarded by the store's lock, so the
    /// dynamic exclusivity check would only cost time.
    @exclusivity(unchecked) @usableFromInline var stamp: UInt64 = 0
    @usableFromInline let cancelled = Atomic<Bool>(false)

    @inlinable
    init(
        id: UInt64,
        words: ObservedWords,
        captureStorageStep: @escaping (StateObserver<State>, UnsafeRawPointer) -> Void,
        captureStateStep: @escaping (StateObserver<State>, State) -> Void,
        fireStep: @escaping (StateObserver<State>) -> Void
    ) {
        self.id = id
        self.words = words
        self.captureStorageStep = captureStorageStep
        self.captureStateStep = captureStateStep
        self.fireStep = fireStep
    }

    @inlinable
    package var isCancelled: Bool {
        cancelled.load(ordering: .acquiring)
    }

    /// Step 1: copies the observed values out of the state's storage, under the store's lock.
    @inlinable
    final func captureFromStorage(_ base: UnsafeRawPointer) {
        captureStorageStep(self, base)
    }

    /// Step 2: reads the observed values from a snapshot, after the lock.
    @inlinable
    final func captureFromState(_ state: State) {
        captureStateStep(self, state)
    }

    /// Step 3: compares and calls the handler, after the lock.
    @inlinable
    final func fire() {
        fireStep(self)
    }
}

/// The observer of one key path: its value and its handler held in the observer itself, so a
/// subscription costs one object here rather than an observed value, an observer and a closure
/// context per step.
@usableFromInline
final class KeyPathObserver<State, Value: Equatable & Sendable>: StateObserver<State>, @unchecked Sendable {
    @usableFromInline let keyPath: KeyPath<State, Value>
    @usableFromInline let offset: Int?
    @usableFromInline let handler: @Sendable (Value) -> Void
    // Touched serially (see ``ObservedValue``): the dynamic exclusivity check would only cost time.
    @exclusivity(unchecked) @usableFromInline var last: Value
    @exclusivity(unchecked) @usableFromInline var pending: Value?

    @inlinable
    init(id: UInt64, keyPath: KeyPath<State, Value>, in state: State, handler: @escaping @Sendable (Value) -> Void) {
        let offset = MemoryLayout<State>.offset(of: keyPath)
        self.keyPath = keyPath
        self.offset = offset
        self.handler = handler
        self.last = state[keyPath: keyPath]
        super.init(
            id: id,
            words: ObservedWords(offset.map { ChangedWords.words(offset: $0, size: MemoryLayout<Value>.size) }),
            captureStorageStep: { observer, base in
                let observer = unsafeDowncast(observer, to: KeyPathObserver<State, Value>.self)
                if let offset = observer.offset { observer.pending = base.load(fromByteOffset: offset, as: Value.self) }
            },
            captureStateStep: { observer, state in
                let observer = unsafeDowncast(observer, to: KeyPathObserver<State, Value>.self)
                observer.pending = state[keyPath: observer.keyPath]
            },
            fireStep: { observer in
                let observer = unsafeDowncast(observer, to: KeyPathObserver<State, Value>.self)
                guard let value = observer.pending else { return }
                observer.pending = nil
                guard value != observer.last else { return }
                observer.last = value
                observer.handler(value)
            }
        )
    }
}

/// An observer whose steps are closures of their own: for several key paths, list diffs and
/// Observation.
@usableFromInline
final class ClosureStateObserver<State>: StateObserver<State>, @unchecked Sendable {
    @usableFromInline let captureStorage: (UnsafeRawPointer) -> Void
    @usableFromInline let captureState: (State) -> Void
    @usableFromInline let fireBody: () -> Void

    @inlinable
    init(
        id: UInt64,
        words: ObservedWords,
        captureFromStorage: @escaping (UnsafeRawPointer) -> Void,
        captureFromState: @escaping (State) -> Void,
        fire: @escaping () -> Void
    ) {
        self.captureStorage = captureFromStorage
        self.captureState = captureFromState
        self.fireBody = fire
        super.init(
            id: id,
            words: words,
            captureStorageStep: { observer, base in
                unsafeDowncast(observer, to: ClosureStateObserver<State>.self).captureStorage(base)
            },
            captureStateStep: { observer, state in
                unsafeDowncast(observer, to: ClosureStateObserver<State>.self).captureState(state)
            },
            fireStep: { observer in unsafeDowncast(observer, to: ClosureStateObserver<State>.self).fireBody() }
        )
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
        offset.map { ChangedWords.words(offset: $0, size: MemoryLayout<Value>.size) }
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
