import IssueReporting
import IssueReportingTestSupport

/// Where a test helper was called: where its failures are reported.
public struct TestLocation: Sendable {
    /// The file, as `#fileID` names it.
    public let fileID: StaticString
    /// The file, as `#filePath` names it.
    public let filePath: StaticString
    /// The line.
    public let line: UInt
    /// The column.
    public let column: UInt

    /// The location given; the caller's by default.
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
    ///
    /// Under XCTest the failure goes to `XCTFail` directly. IssueReporting's `reportIssue` appends
    /// a banner about tests "running in a host application" to every XCTest failure whose call
    /// stack shows no XCTest frame, which it decides from symbol names; on Linux the symbols
    /// never show one, so every failure got the banner. ComposeTesting links XCTest's support
    /// library, so it calls `XCTFail` itself and the failure reads exactly as written.
    func fail(_ message: String) {
        if case .xcTest? = TestContext.current,
            let failure = IssueReportingTestSupport._XCTFail() as? @Sendable (String, StaticString, UInt) -> Void
        {
            failure(message, filePath, line)
            return
        }
        reportIssue(message, fileID: fileID, filePath: filePath, line: line, column: column)
    }
}
