import ComposeEmitters
import ComposeMachinery
import Foundation

/// A storage in memory, for tests and previews: saved bytes live as long as the storage does.
///
/// A reference type: copies share the saved bytes, so a test can hand one to a store and inspect
/// what was saved.
///
/// ```swift
/// let storage = InMemoryPersistentStorage()
/// let store = Store<State>(storage: storage)
/// try store.persistence.save()
/// storage.data  // the saved JSON
/// ```
public final class InMemoryPersistentStorage: AnyPersistentStorage {
    private struct State {
        var data: Data?
        var movedAside: [Data] = []
        var writes = 0
    }

    private let state = LockedState(State())
    /// How the storage is named in errors.
    public let name: String

    /// - Parameters:
    ///   - data: Bytes already saved.
    ///   - name: How errors name this storage.
    public init(data: Data? = nil, name: String = "memory") {
        self.name = name
        state.withLock { $0.data = data }
    }

    public func write(_ data: Data) throws(PersistenceError) {
        state.withLock { state in
            state.data = data
            state.writes += 1
        }
    }

    public func read() throws(PersistenceError) -> Data? {
        state.withLock { $0.data }
    }

    public func delete() throws(PersistenceError) {
        state.withLock { $0.data = nil }
    }

    public func moveAside(_ data: Data) throws(PersistenceError) -> String? {
        state.withLock { state in
            guard state.data == data else { return nil }
            state.movedAside.append(data)
            state.data = nil
            return "\(name), set aside #\(state.movedAside.count)"
        }
    }

    /// The saved bytes, if any.
    public var data: Data? {
        get { state.withLock { $0.data } }
        set { state.withLock { $0.data = newValue } }
    }

    /// Bytes that could not be restored and were set aside, oldest first.
    public var movedAside: [Data] {
        state.withLock { $0.movedAside }
    }

    /// How many times bytes were written.
    public var writeCount: Int {
        state.withLock { $0.writes }
    }

    public var description: String {
        name
    }
}
