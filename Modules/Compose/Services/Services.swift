#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import ComposeEmitters

/// The app's services, keyed by type: extend it with a property per service (see
/// ``Service``), and read them as `services.user` in components.
///
/// ## Creation
/// A service is created the first time it is read, once, even when several threads read it at
/// once (the others wait for it). A service's `init` may read other services; one that reads
/// itself, directly or through others, stops the program with a message naming the cycle.
///
/// ## Overrides
/// ``withOverrides(_:operation:)-(_,()->Result)`` runs code with some services replaced, for a
/// test or a preview, without touching the app's services: code running in it (and the tasks
/// it starts) reads the replacements, and services it reads that were not replaced are
/// created for that scope only, so tests running in parallel never share one.
///
/// ```swift
/// Services.withOverrides({ $0.user = UserService(api: .failing) }) {
///     let host = ComponentHost(AuthComponent())
///     host.root.logIn.send()   // observers read services.user: the replacement
/// }
/// ```
///
/// Overrides follow the task: a handler that runs on another thread (a `DispatchQueue`, a
/// store's background queue) reads the app's services.
public struct Services: Sendable {
    package let storage: ServiceStorage

    package init(storage: ServiceStorage) {
        self.storage = storage
    }

    /// The services that code running now reads: the innermost override scope's, or the app's.
    public static var current: Services {
        Services(storage: ServiceStorage.scoped ?? ServiceStorage.app)
    }

    /// The service of type `type`, created on first read; setting it replaces it in the
    /// current scope.
    public subscript<S: Service>(type: S.Type) -> S {
        get { storage.service(S.self) }
        nonmutating set { storage.set(newValue) }
    }

    /// Runs `operation` with the services `configure` sets replaced, in a scope of their own.
    ///
    /// - Parameters:
    ///   - configure: Sets replacements: `{ $0.user = MockUserService() }`.
    ///   - operation: The code that reads them.
    /// - Returns: What `operation` returns.
    public static func withOverrides<Result>(
        _ configure: (inout Services) throws -> Void,
        operation: () throws -> Result
    ) rethrows -> Result {
        var services = Services(storage: ServiceStorage(parent: ServiceStorage.scoped))
        try configure(&services)
        return try ServiceStorage.$scoped.withValue(services.storage, operation: operation)
    }

    /// Runs the asynchronous `operation` with the services `configure` sets replaced; see
    /// ``withOverrides(_:operation:)-(_,()->Result)``.
    public static func withOverrides<Result>(
        _ configure: (inout Services) throws -> Void,
        isolation: isolated (any Actor)? = #isolation,
        operation: () async throws -> Result
    ) async rethrows -> Result {
        var services = Services(storage: ServiceStorage(parent: ServiceStorage.scoped))
        try configure(&services)
        return try await ServiceStorage.$scoped.withValue(services.storage, operation: operation, isolation: isolation)
    }
}

/// The services of the app, or of an override scope.
package final class ServiceStorage: @unchecked Sendable {  // `values` under its lock; creation under `creation`.
    /// The app's services.
    static let app = ServiceStorage(parent: nil)

    /// The innermost override scope.
    @TaskLocal package static var scoped: ServiceStorage?

    /// An override scope's parent: replacements set in an enclosing scope apply inside.
    let parent: ServiceStorage?
    private let values = LockedState<[ObjectIdentifier: any Sendable]>([:])
    /// Held while a service is created: others wait, the creating thread may create others.
    private let creation = RecursiveLock()
    /// The services being created, to tell a cycle from a wait. Guarded by `creation`.
    private var beingCreated: [(key: ObjectIdentifier, name: String)] = []

    package init(parent: ServiceStorage?) {
        self.parent = parent
    }

    /// The service: replaced here or in an enclosing scope, or created here.
    func service<S: Service>(_: S.Type) -> S {
        let key = ObjectIdentifier(S.self)
        if let found = lookup(key) { return found as! S }
        return creation.withLock {
            if let found = lookup(key) { return found as! S }
            if beingCreated.contains(where: { $0.key == key }) {
                let cycle = (beingCreated.drop { $0.key != key }.map(\.name) + ["\(S.self)"]).joined(separator: " -> ")
                preconditionFailure("Services: a service reads itself while it is created: \(cycle)")
            }
            beingCreated.append((key, "\(S.self)"))
            let created = S()
            beingCreated.removeLast()
            values.withLock { $0[key] = created }
            return created
        }
    }

    func set<S: Service>(_ service: S) {
        values.withLock { $0[ObjectIdentifier(S.self)] = service }
    }

    private func lookup(_ key: ObjectIdentifier) -> (any Sendable)? {
        var storage: ServiceStorage? = self
        while let current = storage {
            if let found = current.values.withLock({ $0[key] }) { return found }
            storage = current.parent
        }
        return nil
    }
}

/// A lock the thread holding it may take again: a service's `init` may read other services.
final class RecursiveLock: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

    init() {
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE))
        let status = pthread_mutex_init(mutex, &attributes)
        precondition(status == 0, "pthread_mutex_init failed: \(status)")
        pthread_mutexattr_destroy(&attributes)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}
