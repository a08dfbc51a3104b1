import Testing

/// Runs `body`, which must make a test helper fail with a message containing every fragment;
/// the failure is absorbed, so this test passes only if the helper failed as it should.
func expectFailure(
    _ fragments: String...,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () -> Void
) {
    withKnownIssue(sourceLocation: sourceLocation) {
        body()
    } matching: { issue in
        let message = issue.comments.map(\.rawValue).joined(separator: "\n")
        return fragments.allSatisfy(message.contains)
    }
}

/// `expectFailure` for asynchronous helpers.
func expectFailure(
    _ fragments: String...,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () async -> Void
) async {
    await withKnownIssue(sourceLocation: sourceLocation) {
        await body()
    } matching: { issue in
        let message = issue.comments.map(\.rawValue).joined(separator: "\n")
        return fragments.allSatisfy(message.contains)
    }
}
