import ComposeEmitters
import ComposeMachinery
import ComposePersistence
import Foundation

/// An in-memory storage a test can make fail (the next save, the next restore, or corrupt data)
/// or slow (saves held until the test lets them go), to test the error paths of persistence and
/// what happens while a save is in flight.
///
/// ```swift
/// let storage = TestPersistentStorage()
/// let store = Store<State>(storage: storage)
/// storage.failNextWrite()
/// #expect(throws: PersistenceError.self) { try store.persistence.save() }
///
/// storage.holdCorruptData()
/// #expect(throws: PersistenceError.self) { try store.persistence.restore() }
/// ```
///
/// Its ``/ComposePersistence/AnyPersistentStorage/identity`` is the object's: stores given the same instance share
/// one save, and a restore waits for the automatic saves of that instance still pending.
public final class TestPersistentStorage: AnyPersistentStorage {
    /// An operation of the storage.
    public enum Operation: Sendable, Hashable {
        /// A save.
        case write
        /// A restore.
        case read
        /// A purge.
        case delete
        /// Setting a corrupt save aside.
        case moveAside
    }

    private struct State {
        var data: Data?
        var writes: [Data] = []
        var movedAside: [Data] = []
        var failures: [Operation: [PersistenceError]] = [:]
    }

    private let state: LockedState<State>
    private let hold = WriteHold()
    /// The name in error messages.
    public let name: String

    /// A storage holding `data`.
    public init(data: Data? = nil, name: String = "test storage") {
        self.state = LockedState(State(data: data))
        self.name = name
    }

    // MARK: Failing on purpose

    /// Makes the next `count` calls of `operation` throw `error` (by default
    /// `PersistenceError.unwritable` or `.unreadable`, naming the failure as injected).
    public func failNext(_ operation: Operation, times count: Int = 1, with error: PersistenceError? = nil) {
        let failure =
            error
            ?? {
                switch operation {
                case .read: .unreadable(location: name, reason: "a failure injected by the test")
                case .write, .delete, .moveAside: .unwritable(location: name, reason: "a failure injected by the test")
                }
            }()
        state.withLock { $0.failures[operation, default: []] += Array(repeating: failure, count: count) }
    }

    /// Makes the next save fail.
    public func failNextWrite(with error: PersistenceError? = nil) {
        failNext(.write, with: error)
    }

    /// Makes the next restore fail.
    public func failNextRead(with error: PersistenceError? = nil) {
        failNext(.read, with: error)
    }

    /// Replaces what the storage holds with `data` (by default bytes that are not JSON): the
    /// next restore finds a corrupt save.
    public func holdCorruptData(_ data: Data = Data("{ this is not a save".utf8)) {
        state.withLock { $0.data = data }
    }

    // MARK: Holding saves

    /// Makes every save wait, from now on, until ``releaseWrites()``: a save in flight for as
    /// long as the test wants.
    ///
    /// A held save blocks the thread that saves (autosave's background queue, or the caller of
    /// `save()`); call ``releaseWrites()`` from another one. A held save then runs as any other:
    /// a failure queued with ``failNext(_:times:with:)`` applies to it.
    public func holdWrites() {
        hold.set(holding: true)
    }

    /// Lets the held saves go, and every later one.
    public func releaseWrites() {
        hold.set(holding: false)
    }

    /// How many saves are held, waiting for ``releaseWrites()``.
    public var heldWrites: Int {
        hold.waitingCount
    }

    // MARK: What happened

    /// What the storage holds now.
    public var data: Data? {
        state.withLock { $0.data }
    }

    /// Every successful write, in order.
    public var writes: [Data] {
        state.withLock { $0.writes }
    }

    /// The data moved aside (corrupt saves), in order.
    public var movedAside: [Data] {
        state.withLock { $0.movedAside }
    }

    // MARK: AnyPersistentStorage

    public func write(_ data: Data) throws(PersistenceError) {
        hold.waitWhileHolding()
        try failure(for: .write)
        state.withLock { state in
            state.data = data
            state.writes.append(data)
        }
    }

    public func read() throws(PersistenceError) -> Data? {
        try failure(for: .read)
        return state.withLock { $0.data }
    }

    public func delete() throws(PersistenceError) {
        try failure(for: .delete)
        state.withLock { $0.data = nil }
    }

    public func moveAside(_ data: Data) throws(PersistenceError) -> String? {
        try failure(for: .moveAside)
        return state.withLock { state -> String? in
            guard state.data == data else { return nil }
            state.movedAside.append(data)
            state.data = nil
            return "\(name) (set aside #\(state.movedAside.count))"
        }
    }

    private func failure(for operation: Operation) throws(PersistenceError) {
        let failure: PersistenceError? = state.withLock { state in
            guard var queued = state.failures[operation], !queued.isEmpty else { return nil }
            let first = queued.removeFirst()
            state.failures[operation] = queued
            return first
        }
        if let failure { throw failure }
    }

    public var description: String {
        name
    }
}

/// Where held saves of a ``TestPersistentStorage`` wait.
private final class WriteHold: @unchecked Sendable {  // The two counts are under `condition`.
    private let condition = ConditionLock()
    private var holding = false
    private var waiting = 0

    func set(holding: Bool) {
        condition.withLock {
            self.holding = holding
            condition.broadcast()
        }
    }

    var waitingCount: Int {
        condition.withLock { waiting }
    }

    func waitWhileHolding() {
        condition.withLock {
            guard holding else { return }
            waiting += 1
            while holding { condition.wait() }
            waiting -= 1
        }
    }
}
