import ComposeEmitters
import ComposeMachinery

/// Reactive state with keypath-level change detection: `@Store var state: State`.
///
/// ```swift
/// struct LogInComponent {
///     @Store var state: State
///
///     struct State: AnyState {
///         var email = ""
///         var password = ""
///     }
///
///     var observers: Void {
///         $state.observe(\.email) { email in print("email is now \(email)") }
///         $state.willChange += { state in print("new state", state) }
///     }
/// }
/// ```
///
/// `Store` is a value whose storage is a shared reference: copies of a struct that holds a
/// store read and write the same state, and its setter works from non-mutating code.
///
/// ## Reading and writing
/// - `state` (the wrapped value) reads or replaces the whole state: `state.email = "x"` reads
///   the state, changes a copy, and writes it back. The store compares the old and new states'
///   storage where someone listens, to find what changed.
/// - `$state.email` (dynamic member lookup on the projection) reads or writes one key path. A
///   write to a stored property costs O(1) whatever the size of the state, and a read tells
///   Observation about that key path alone.
/// - `$state.mutate { $0.email = "x"; $0.password = "" }` changes several properties atomically,
///   with one notification.
/// - `$state.setState { }` / `$state.withState { }` queue work in Cyanic's and MvRx's order.
///
/// ## Isolation model
/// A store is `Sendable` and can be used from any thread or actor:
/// - **Writes commit at once.** When a write returns, every read on every thread sees it. Writes
///   are atomic; `mutate` is an atomic read-modify-write that never loses a concurrent write (its
///   body may run again, on the newer state, if another write lands while it runs; after 4 lost
///   runs, other writers wait for it, so it always commits).
///   `state.count += 1` through the wrapper is a read followed by a write: from several threads
///   at once, use `mutate`. Likewise `state.name = x` writes back the whole state it read, so a
///   write to another property that another thread lands in between is undone; a keyed write
///   (`$state.name = x`) or `mutate` touches only what it changes.
/// - **Notifications follow commits.** Observers are notified one notification at a time, in
///   commit order, on the thread that committed: or, if a notification is already being delivered
///   (by another thread, or because an observer wrote to the store), right after it, by the thread
///   delivering it. An observer that writes to the store sees its write at once and is never
///   blocked; the observers of that write are notified after the current notification finishes.
/// - **A SwiftUI app** that writes from the main actor is therefore notified on the main actor;
///   a server or a test can write from anywhere.
/// - **No lock is held while user code runs**: not an observer, not a `mutate` body, not the
///   getter or setter of a computed property reached through a key path.
@propertyWrapper
@dynamicMemberLookup
public struct Store<State: AnyState>: Sendable {
    @usableFromInline
    package let storage: StoreStorage<State>

    /// A store holding `State()`.
    ///
    /// - Parameter label: How the store is named in the ``/ComposeEmitters/EventLog``.
    @inlinable
    public init(label: String? = nil) {
        self.init(wrappedValue: State(), label: label)
    }

    /// A store holding `wrappedValue`.
    ///
    /// - Parameters:
    ///   - wrappedValue: The initial state.
    ///   - label: How the store is named in the ``/ComposeEmitters/EventLog``.
    @inlinable
    public init(wrappedValue: State, label: String? = nil) {
        storage = StoreStorage(state: wrappedValue, label: label)
    }

    /// A store around existing storage: for modules built on the store, such as persistence.
    package init(storage: StoreStorage<State>) {
        self.storage = storage
    }

    /// A store whose `setState` and `withState` work runs where `scheduler` says.
    @_spi(Testing)
    public init(wrappedValue: State = State(), label: String? = nil, scheduler: StateQueueScheduler) {
        storage = StoreStorage(state: wrappedValue, label: label, schedule: scheduler.schedule)
    }

    /// The whole state.
    ///
    /// Reading copies the state and tells Observation that the whole state was read. Writing
    /// replaces it and notifies the observers of what changed.
    ///
    /// - Complexity: O(*s*) in the size of the state.
    @inlinable
    public var wrappedValue: State {
        get { storage.read() }
        nonmutating set { storage.write(newValue) }
        // `state.x = value` and `state.list.append(y)` change a copy and write it back; a write
        // is not a read, so Observation is not told about one.
        nonmutating _modify {
            let write = storage.beginWholeStateWrite()
            defer { storage.endWholeStateWrite(write) }
            yield &write.state.pointee
            storage.commitWholeStateWrite(write)
        }
    }

    /// The store itself, for `$state.willChange`, `$state.binding`, `$state.observe(...)` and
    /// keyed access such as `$state.email`.
    @inlinable
    public var projectedValue: Store<State> {
        self
    }

    /// The whole state; the same as ``wrappedValue``, for a store that is not a property wrapper.
    @inlinable
    public var state: State {
        get { storage.read() }
        nonmutating set { storage.write(newValue) }
        nonmutating _modify {
            let write = storage.beginWholeStateWrite()
            defer { storage.endWholeStateWrite(write) }
            yield &write.state.pointee
            storage.commitWholeStateWrite(write)
        }
    }

    /// The value at a key path of the state.
    ///
    /// ```swift
    /// $state.email = "jill@example.com"   // O(1), notifies the observers of `email` only
    /// let email = $state.email            // Observation is told about `email` only
    /// ```
    ///
    /// - Complexity: O(1) for a stored property; a computed property is evaluated (or set) on a
    ///   copy of the state.
    @inlinable
    public subscript<Value>(dynamicMember keyPath: WritableKeyPath<State, Value>) -> Value {
        get { storage.read(keyPath) }
        nonmutating set { storage.write(keyPath, newValue) }
        // `$state.address.city = value`: the value is read, changed and written back without
        // telling Observation about a read (which would register an observer of `address`).
        nonmutating _modify {
            var value = storage.readForWriting(keyPath)
            yield &value
            storage.write(keyPath, value)
        }
    }

    /// The value at a read-only key path of the state, such as a computed validation.
    @inlinable
    public subscript<Value>(dynamicMember keyPath: KeyPath<State, Value>) -> Value {
        storage.read(keyPath)
    }

    /// Changes the state atomically, with one notification for the whole batch.
    ///
    /// ```swift
    /// $state.mutate { state in
    ///     state.status += .loading
    ///     state.error = nil
    /// }
    /// ```
    ///
    /// `body` runs on a copy of the state, without any lock held. If another write commits while
    /// it runs, `body` runs again on the newer state, so no write is lost: keep it to changing
    /// the state it is given. After 4 runs lost to other writers, the other writers of this store
    /// wait while `body` runs once more, so `body` runs at most 5 times; it must therefore not
    /// wait for another thread that writes to a store or a `@Ref` (one such run at a time runs in
    /// the process, see the Guarantees article). Inside
    /// `body`, reads and writes of this store on this thread (including a nested `mutate`) see
    /// and change the same copy. If `body` throws, nothing changes; a nested `mutate` whose body
    /// throws undoes its own changes to the copy.
    ///
    /// Such a write belongs to the run it is made in, and goes with it if the run is lost,
    /// whoever makes it: an observer of another store that `body` writes, called on this thread,
    /// writes this copy too. Since what `body` does besides changing `state` is not undone (the
    /// other store keeps its value, and writing it again on the next run notifies nobody), keep
    /// writes of other stores out of `body`, after it.
    ///
    /// - Returns: What `body` returns.
    @inlinable
    @discardableResult
    public func mutate<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        try storage.mutate(body)
    }

    /// Makes the store's version move as a write from another thread would, without changing the
    /// state: a `mutate` running now loses its run. For tests of `mutate` under contention.
    @_spi(Testing)
    public func simulateConcurrentWrite() {
        storage.core.withLock { $0.version &+= 1 }
    }

    /// How the store is named in the ``/ComposeEmitters/EventLog``.
    public var label: String {
        storage.label
    }

    /// The number of active keypath observers (`observe`, `asyncSubscribe`, and the key paths
    /// Observation is tracking).
    public var observerCount: Int {
        storage.observerCount
    }
}
