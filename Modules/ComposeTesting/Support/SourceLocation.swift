import IssueReporting

/// Where a test helper was called: where its failures are reported.
public struct TestLocation: Sendable {
    public let fileID: StaticString
    public let filePath: StaticString
    public let line: UInt
    public let column: UInt

    public init(
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) {
        self.fileID = fileID
        self.filePath = filePath
        self.line = line
        self.column = column
    }

    /// Reports `message` as a test failure here, under XCTest or Swift Testing, whichever runs.
    func fail(_ message: String) {
        reportIssue(message, fileID: fileID, filePath: filePath, line: line, column: column)
    }
}
