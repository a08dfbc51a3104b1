import ComposeMachinery

/// Where ``Diagnostic``s go.
///
/// Every diagnostic is recorded in the ``EventLog`` (kind `diagnostic`) and handed to the
/// handler of the current ``withHandler(_:operation:)`` scope. Outside any scope, debug builds
/// print it to standard error and release builds stay quiet: the operation that found it has
/// already refused to do harm.
///
/// ```swift
/// // In a test: collect diagnostics instead of printing them.
/// Diagnostics.withHandler({ diagnostic in found.append(diagnostic) }) {
///     router.pop()  // popping the root: refused, and reported here
/// }
/// ```
///
/// `ComposeTesting` installs a handler that turns diagnostics into test failures.
public enum Diagnostics {
    /// The handler, in a `Box` (see why there).
    @TaskLocal
    static var handler: Box<@Sendable (Diagnostic) -> Void>?

    /// Runs `operation` with `handler` receiving the diagnostics reported in it (and in the
    /// tasks it starts). A task-local scope: tests running in parallel do not see each other's
    /// diagnostics.
    ///
    /// - Returns: What `operation` returns.
    public static func withHandler<Result>(
        _ handler: @escaping @Sendable (Diagnostic) -> Void,
        operation: () throws -> Result
    ) rethrows -> Result {
        try $handler.withValue(Box(handler), operation: operation)
    }

    /// Runs the asynchronous `operation` with `handler` receiving its diagnostics.
    public static func withHandler<Result>(
        _ handler: @escaping @Sendable (Diagnostic) -> Void,
        isolation: isolated (any Actor)? = #isolation,
        operation: () async throws -> Result
    ) async rethrows -> Result {
        try await $handler.withValue(Box(handler), operation: operation, isolation: isolation)
    }

    /// Whether a handler receives this task's diagnostics.
    public static var hasHandler: Bool {
        handler != nil
    }

    /// Reports `diagnostic`: to the event log, and to the current handler or, without one, to
    /// standard error in debug builds.
    public static func report(_ diagnostic: Diagnostic) {
        EventLog.record(.diagnostic, source: diagnostic.domain, payload: diagnostic.message)
        if let handler {
            handler.value(diagnostic)
            return
        }
        #if DEBUG
        let line = Array("\(diagnostic)\n".utf8)
        _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }  // standard error
        #endif
    }

    /// Reports a diagnostic made of `domain` and `message`.
    public static func report(domain: String, _ message: String, fileID: String = #fileID, line: UInt = #line) {
        report(Diagnostic(domain: domain, message: message, fileID: fileID, line: line))
    }
}

extension EventLog.Event.Kind {
    /// A ``Diagnostic`` was reported.
    public static let diagnostic = Self(rawValue: "diagnostic")
}
