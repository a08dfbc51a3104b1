import ComposeEmitters
import ComposeMachinery

/// The app's services, keyed by type: extend it with a property per service (see
/// ``Service``), and read them as `services.user` in components.
///
/// ## Creation
/// A service is created the first time it is read, once, even when several threads read it at
/// once (the others wait for it). A service's `init` runs without any lock held, and creating
/// one service never waits for the creation of another it does not read: an `init` may block
/// on another thread that reads other services. A service's `init` may read other services;
/// one that reads itself, directly or through others, on one thread or across threads, stops
/// the program with a message naming the cycle.
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
/// A scope sees the replacements of its enclosing scopes, never the services they created: a
/// service read in a scope without a replacement is created there, even if the app created one.
///
/// A component tree keeps the scope it was mounted in: its handlers (what `observers` set up)
/// run with that scope's services and clock wherever the value is sent from (a test's
/// `StoreTester`, another thread, a timer), unless the sender already runs in that scope or in
/// one opened inside it (a test replacing a service for one send), which then wins. Other code
/// follows the task: a handler outside any tree that runs on another thread (a `DispatchQueue`,
/// a store's background queue) reads the app's services.
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

    /// The clock components and time-based code read time from: the one set in this scope or
    /// an enclosing one, otherwise `ComposeClock.current` (the continuous clock, unless a test
    /// set another).
    ///
    /// ```swift
    /// Services.withOverrides({ $0.clock = ComposeClock(TestClock()) }) {
    ///     // debounce(interval:), throttle(interval:), delay(interval:), timers and autosave
    ///     // created here run on the test clock.
    /// }
    /// ```
    public var clock: ComposeClock {
        get { storage.clockOverride ?? ComposeClock.current }
        nonmutating set { storage.setClock(newValue) }
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
        return try services.storage.run(operation)
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
        return try await ServiceStorage.$scoped.withValue(
            services.storage,
            operation: {
                guard let clock = services.storage.clockOverride else { return try await operation() }
                return try await ComposeClock.withCurrent(clock, operation: operation)
            }, isolation: isolation)
    }
}

/// The services of the app, or of an override scope.
package final class ServiceStorage: @unchecked Sendable {  // `values` under its lock.
    /// The app's services.
    static let app = ServiceStorage(parent: nil)

    /// The innermost override scope.
    @TaskLocal package static var scoped: ServiceStorage?

    /// An override scope's parent: replacements set in an enclosing scope apply inside.
    let parent: ServiceStorage?
    private let values = LockedState<Values>(Values())

    private struct Values {
        /// Replacements set in this scope (`services.user = ...`).
        var overrides: [ObjectIdentifier: Any] = [:]
        /// Services created in this scope.
        var created: [ObjectIdentifier: Any] = [:]
        var clock: ComposeClock?
    }

    package init(parent: ServiceStorage?) {
        self.parent = parent
    }

    /// Runs `body` in this scope: with these services, and with the clock set here or in an
    /// enclosing scope as `ComposeClock.current`.
    package func run<Result>(_ body: () throws -> Result) rethrows -> Result {
        try Self.$scoped.withValue(self) {
            guard let clock = clockOverride else { return try body() }
            return try ComposeClock.withCurrent(clock, operation: body)
        }
    }

    /// What the handlers of a tree mounted in this scope run inside: this scope, with the clock
    /// in force now (this scope's, or the one its code runs with, a sandbox's say), unless the
    /// code calling them already runs in this scope or in one opened inside it.
    var handlerContext: HandlerContext {
        let clock = clockOverride ?? ComposeClock.current
        return HandlerContext { [self] call in
            if let current = Self.scoped, current.isWithin(self) { return call() }
            Self.$scoped.withValue(self) { ComposeClock.withCurrent(clock, operation: call) }
        }
    }

    /// Whether this scope is `other` or was opened inside it.
    private func isWithin(_ other: ServiceStorage) -> Bool {
        var storage: ServiceStorage? = self
        while let current = storage {
            if current === other { return true }
            storage = current.parent
        }
        return false
    }

    /// The service: replaced here or in an enclosing scope, or created here.
    func service<S: Service>(_: S.Type) -> S {
        let key = ObjectIdentifier(S.self)
        if let found = lookup(key) { return found as! S }
        return ServiceCreation.service(S.self, in: self)
    }

    func set<S: Service>(_ service: S) {
        values.withLock { $0.overrides[ObjectIdentifier(S.self)] = service }
    }

    /// The clock set in this scope or an enclosing one.
    package var clockOverride: ComposeClock? {
        var storage: ServiceStorage? = self
        while let current = storage {
            if let clock = current.values.withLock({ $0.clock }) { return clock }
            storage = current.parent
        }
        return nil
    }

    func setClock(_ clock: ComposeClock) {
        values.withLock { $0.clock = clock }
    }

    /// Stores a service just created; returns the one to use (one set meanwhile wins).
    fileprivate func store<S: Service>(_ created: S) -> S {
        values.withLock { values in
            let key = ObjectIdentifier(S.self)
            if let existing = values.overrides[key] ?? values.created[key] { return existing as! S }
            values.created[key] = created
            return created
        }
    }

    /// A replacement here or in an enclosing scope, or a service created here.
    fileprivate func lookup(_ key: ObjectIdentifier) -> Any? {
        if let found = values.withLock({ $0.overrides[key] ?? $0.created[key] }) { return found }
        var storage = parent
        while let current = storage {
            if let found = current.values.withLock({ $0.overrides[key] }) { return found }
            storage = current.parent
        }
        return nil
    }
}

/// Creating services: each one once, without one creation ever waiting for another that does
/// not need it, and every cycle reported by name.
///
/// The bookkeeping is process-wide and guarded by one condition lock, held only to read and
/// change it, never while a service's `init` runs:
/// - `creating` says which thread is creating which service (of which scope);
/// - a thread that asks for a service another thread is creating waits for that one service,
///   and `waiting` records what it waits for;
/// - asking for a service that this thread is creating, or waiting for one whose creator waits,
///   through a chain, for this thread, is a cycle: the program stops with the cycle named.
///
/// So an `init` may block on another thread (a `DispatchQueue.main.sync`) that creates other
/// services: that thread is never held up by this creation.
enum ServiceCreation {
    struct Key: Hashable {
        let storage: ObjectIdentifier
        let service: ObjectIdentifier
    }

    struct Creation {
        let thread: UInt
        let name: String
    }

    private struct State {
        var creating: [Key: Creation] = [:]
        /// What each waiting thread waits for.
        var waiting: [UInt: Key] = [:]
        /// What each thread is creating, outermost first.
        var stacks: [UInt: [Key]] = [:]
    }

    private static let condition = ConditionLock()
    nonisolated(unsafe) private static var state = State()  // Under `condition`.

    static func service<S: Service>(_: S.Type, in storage: ServiceStorage) -> S {
        let key = Key(storage: ObjectIdentifier(storage), service: ObjectIdentifier(S.self))
        let me = ThreadIdentity.current
        condition.lock()
        while true {
            if let found = storage.lookup(key.service) {
                condition.unlock()
                return found as! S
            }
            guard let creator = state.creating[key] else { break }
            if let cycle = cycle(wanting: key, name: "\(S.self)", creator: creator, me: me) {
                condition.unlock()
                preconditionFailure("Services: a service reads itself while it is created: \(cycle)")
            }
            state.waiting[me] = key
            condition.wait()
            state.waiting[me] = nil
        }
        state.creating[key] = Creation(thread: me, name: "\(S.self)")
        state.stacks[me, default: []].append(key)
        condition.unlock()

        let created = S()

        let service = storage.store(created)
        condition.lock()
        state.creating[key] = nil
        state.stacks[me]?.removeLast()
        if state.stacks[me]?.isEmpty == true { state.stacks[me] = nil }
        condition.broadcast()
        condition.unlock()
        return service
    }

    /// How many threads wait for a service of type `type` that another thread is creating: what a
    /// test reads to know that a read overlaps a creation.
    static func waitingThreadCount<S: Service>(for type: S.Type) -> Int {
        condition.lock()
        defer { condition.unlock() }
        return state.waiting.values.count { $0.service == ObjectIdentifier(type) }
    }

    /// The cycle that waiting for `key`, created by `creator`, would close, as names; `nil` if
    /// waiting is safe. Under the condition lock.
    private static func cycle(wanting key: Key, name: String, creator: Creation, me: UInt) -> String? {
        var chain = [key]
        var current = creator
        // Follow the creators: each is either creating on its own, or waiting for a key.
        while current.thread != me {
            guard let next = state.waiting[current.thread], let nextCreator = state.creating[next],
                chain.count <= state.creating.count
            else {
                return nil
            }
            chain.append(next)
            current = nextCreator
        }
        // The chain ends at a key this thread is creating: the cycle runs from there through
        // this thread's creations to `key`, and back along the chain.
        let mine = state.stacks[me] ?? []
        let start = mine.firstIndex(of: chain.last!) ?? 0
        let names = (mine[start...] + chain).map { state.creating[$0]?.name ?? name }
        return names.joined(separator: " -> ")
    }
}
