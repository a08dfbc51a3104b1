/// One world of Compose's process-wide state: what code running in it shares, and nothing
/// running in another world sees.
///
/// Some of Compose's state is naturally global: the entities `@Ref` shares by type and id, the
/// event log. A test suite that runs tests in parallel needs each test to have its own, or tests
/// that use the same ids write into each other's data. A world holds such state, keyed by what
/// it is for (each module asks for its own values); the *process world* holds it for code outside
/// any other, and ComposeTesting's sandbox runs each test in a world of its own.
///
/// The current world follows the task, like a task-local value: code called inside
/// ``run(_:)`` and the tasks it starts see it. Work sent to a thread outside the task tree (a
/// `DispatchQueue`, a `Thread`) runs in the process world, unless it captures ``current`` and
/// enters it with ``run(_:)``. Objects made in a world keep what they got from it (a `@Ref` keeps
/// its entity), wherever they are used later.
package final class ComposeWorld: Sendable {
    /// The world of code that runs in no other.
    package static let process = ComposeWorld(label: "process")

    @TaskLocal
    private static var entered: ComposeWorld?

    /// The world code running now belongs to.
    package static var current: ComposeWorld {
        entered ?? process
    }

    /// A name for diagnostics: the test's name for a sandbox.
    package let label: String
    private let values = LockedState<[ObjectIdentifier: any Sendable]>([:])

    package init(label: String) {
        self.label = label
    }

    /// The world's value for `key`, made by `make` the first time it is asked for.
    ///
    /// - Complexity: One lock round trip; `make` runs under the world's lock (it must only
    ///   allocate).
    package func value<Value: Sendable>(for key: ObjectIdentifier, make: () -> Value) -> Value {
        values.withLock { values in
            if let known = values[key] { return known as! Value }
            let made = make()
            values[key] = made
            return made
        }
    }

    /// Runs `operation` in this world.
    package func run<Result>(_ operation: () throws -> Result) rethrows -> Result {
        try Self.$entered.withValue(self, operation: operation)
    }

    /// Runs the asynchronous `operation` in this world, and the tasks it starts.
    package func run<Result>(
        isolation: isolated (any Actor)? = #isolation,
        _ operation: () async throws -> Result
    ) async rethrows -> Result {
        try await Self.$entered.withValue(self, operation: operation, isolation: isolation)
    }
}
