import ComposeMachinery
import Foundation

/// A directory that lives as long as a scope (ComposeTesting's sandbox): removed when the scope
/// ends, and never written to again.
///
/// A ``FilePersistentStorage`` made inside ``run(_:)-(()->Result)`` saves to ``url`` by default
/// (it is `FilePersistentStorage.directoryOverride` there), and every save of a storage whose
/// directory is ``url`` or inside it, however spelled, goes through the scope
/// (``containing(_:)``, asked at each save): once ``close()`` has begun, such saves are refused
/// with ``PersistenceError/unwritable(location:reason:)``, before anything is written, so nothing
/// recreates the directory. That catches what outlives the scope: an autosave whose window
/// closes later, a store made later by a task the scope started. Its restores find nothing,
/// and its purges succeed.
///
/// A directory is inside the scope's when its path, as spelled or with its links followed,
/// starts with the scope's directory, as spelled or with its links followed: a path through a
/// link that leads elsewhere belongs to the scope as much as a link to the scope's directory
/// does. Ended scopes are remembered by those two paths for the life of the process.
///
/// ``close()`` refuses new writes, waits for those in progress (each is one file), then removes
/// the directory.
package final class ScopedDirectory: @unchecked Sendable {  // `machine` is under `condition`.
    /// The directory.
    package let url: URL
    /// Who owns the directory, in errors: `the sandbox "name"`.
    package let owner: String
    /// The components of ``url``'s path as spelled and canonical (the same before the directory
    /// exists as after): a directory is inside the scope's if its own start with either.
    private let reach: Reach
    private let condition = ConditionLock()
    private var machine = ScopedDirectoryStateMachine()

    /// The scope code runs in, if any.
    @TaskLocal
    package static var current: ScopedDirectory?

    /// Every scope alive in the process, weakly, and the reach and owner of every scope that
    /// ended: a save to a directory inside one goes through it (or is refused), whichever scope
    /// is current (a sandbox's directory given to a storage made inside another sandbox, or
    /// outside any).
    private static let registry = LockedState<(live: [WeakBox<ScopedDirectory>], ended: [(Reach, owner: String)])>(([], []))

    package init(url: URL, owner: String) {
        self.url = url
        self.owner = owner
        self.reach = Reach(url)
        Self.registry.withLock { registry in
            registry.live.removeAll { $0.object == nil }
            registry.live.append(WeakBox(self))
        }
    }

    /// A scope that has ended, for a save to a directory inside one that is no longer alive.
    private init(endedFor owner: String, reach: Reach) {
        self.url = URL(fileURLWithPath: "/" + reach.canonical.joined(separator: "/"))
        self.owner = owner
        self.reach = reach
        _ = machine.close()
    }

    /// The innermost scope, alive or ended, whose directory is `directory` or contains it, if any,
    /// as the file system is now.
    package static func containing(_ directory: URL) -> ScopedDirectory? {
        let (scopes, ended) = registry.withLock { registry in (registry.live.compactMap(\.object), registry.ended) }
        let target = Reach(directory)
        if let scope = scopes.filter({ target.isInside($0.reach) }).max(by: { $0.reach.depth < $1.reach.depth }) {
            return scope
        }
        guard let (reach, owner) = ended.filter({ target.isInside($0.0) }).max(by: { $0.0.depth < $1.0.depth }) else {
            return nil
        }
        return ScopedDirectory(endedFor: owner, reach: reach)
    }

    /// Runs `body` in the scope: storages made there save to ``url`` and keep the scope.
    package func run<Result>(_ body: () throws -> Result) rethrows -> Result {
        try Self.$current.withValue(self) {
            try FilePersistentStorage.$directoryOverride.withValue(url, operation: body)
        }
    }

    /// Runs the asynchronous `body` in the scope, and the tasks it starts.
    package func run<Result>(
        isolation: isolated (any Actor)? = #isolation,
        _ body: () async throws -> Result
    ) async rethrows -> Result {
        try await Self.$current.withValue(
            self,
            operation: {
                try await FilePersistentStorage.$directoryOverride.withValue(url, operation: body, isolation: isolation)
            }, isolation: isolation)
    }

    /// Where the scope is: open, closing or closed (for tests).
    var state: ScopedDirectoryStateMachine.State {
        condition.withLock { machine.state }
    }

    /// Runs `write` unless the scope has ended; ``close()`` waits for it.
    ///
    /// - Parameter location: The file written, in the error.
    /// - Throws: ``PersistenceError/unwritable(location:reason:)`` if the scope has ended (and
    ///   `write` did not run), or what `write` throws.
    func write<Result>(
        to location: String, _ write: () throws(PersistenceError) -> Result
    ) throws(PersistenceError) -> Result {
        guard condition.withLock({ machine.enter() }) == .write else {
            throw .unwritable(
                location: location,
                reason: "\(owner) has ended: its directory is removed and nothing is written there any more")
        }
        defer {
            condition.withLock {
                if machine.leave() == .wakeTheCloser { condition.broadcast() }
            }
        }
        return try write()
    }

    /// Ends the scope: refuses every write from now on, waits for the writes in progress, and
    /// removes the directory. Call without any lock.
    package func close() {
        let action = condition.withLock {
            let action = machine.close()
            if action == .waitForWriters {
                while !machine.isClosed { condition.wait() }
            }
            return action
        }
        if action != .none {
            Self.registry.withLock { $0.ended.append((reach, owner)) }
            try? FileManager.default.removeItem(at: url)
        }
    }
}

extension ScopedDirectory {
    /// Where a directory is: its path's components as spelled and with links followed.
    struct Reach: Sendable {
        let spelled: [String]
        let canonical: [String]

        init(_ url: URL) {
            spelled = CanonicalPath.spelledComponents(of: url)
            canonical = CanonicalPath.components(of: url)
        }

        var depth: Int { canonical.count }

        /// Whether a directory here is `other`'s directory or inside it, by either path.
        func isInside(_ other: Reach) -> Bool {
            [spelled, canonical].contains { path in
                path.starts(with: other.spelled) || path.starts(with: other.canonical)
            }
        }
    }
}
