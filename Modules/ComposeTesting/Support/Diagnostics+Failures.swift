import ComposeEmitters

/// Runs `body` with every Compose `Diagnostic` it reports (a refused navigation, a component
/// observing its parent's emitter) turned into a test failure at `location`.
///
/// The test helpers run their own operations this way; wrap your own code in it too:
///
/// ```swift
/// failOnDiagnostics { router.pop() }   // fails the test: "Router refused: poppingRoot ..."
/// ```
public func failOnDiagnostics<Result>(
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column,
    _ body: () throws -> Result
) rethrows -> Result {
    try failOnDiagnostics(at: TestLocation(fileID: fileID, filePath: filePath, line: line, column: column), body)
}

func failOnDiagnostics<Result>(at location: TestLocation, _ body: () throws -> Result) rethrows -> Result {
    try Diagnostics.withHandler({ diagnostic in location.fail("Compose reported: \(diagnostic.message)") }, operation: body)
}
