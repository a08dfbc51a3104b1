import ComposeMachinery
import Foundation

/// A directory that lives as long as a scope (ComposeTesting's sandbox): removed when the scope
/// ends, and never written to again.
///
/// A ``FilePersistentStorage`` made inside ``run(_:)-(()->Result)`` saves to ``url`` by default
/// (it is `FilePersistentStorage.directoryOverride` there), and one made anywhere for a
/// directory inside ``url`` keeps the scope (``containing(_:)``): once ``close()`` has begun, its saves are refused with
/// ``PersistenceError/unwritable(location:reason:)``, before anything is written, so nothing
/// recreates the directory. That catches what outlives the scope: an autosave whose window
/// closes later, a store made later by a task the scope started. Its restores find nothing,
/// and its purges succeed.
///
/// ``close()`` refuses new writes, waits for those in progress (each is one file), then removes
/// the directory.
package final class ScopedDirectory: @unchecked Sendable {  // `machine` is under `condition`.
    /// The directory.
    package let url: URL
    /// Who owns the directory, in errors: `the sandbox "name"`.
    package let owner: String
    /// The components of ``url``'s canonical path: the same before the directory exists as after.
    private let canonicalComponents: [String]
    private let condition = ConditionLock()
    private var machine = ScopedDirectoryStateMachine()

    /// The scope code runs in, if any.
    @TaskLocal
    package static var current: ScopedDirectory?

    /// Every scope alive in the process, weakly: a storage made for a directory inside one keeps
    /// it, whichever scope is current (a sandbox's directory given to a storage made inside
    /// another sandbox, or outside any).
    private static let live = LockedState<[WeakBox<ScopedDirectory>]>([])

    package init(url: URL, owner: String) {
        self.url = url
        self.owner = owner
        self.canonicalComponents = CanonicalPath.components(of: url)
        Self.live.withLock { live in
            live.removeAll { $0.object == nil }
            live.append(WeakBox(self))
        }
    }

    /// The innermost live scope whose directory is `directory` or contains it, if any.
    package static func containing(_ directory: URL) -> ScopedDirectory? {
        let scopes = live.withLock { live in live.compactMap(\.object) }
        let components = CanonicalPath.components(of: directory)
        return scopes.filter { components.starts(with: $0.canonicalComponents) }
            .max { $0.canonicalComponents.count < $1.canonicalComponents.count }
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
        if action != .none { try? FileManager.default.removeItem(at: url) }
    }
}
