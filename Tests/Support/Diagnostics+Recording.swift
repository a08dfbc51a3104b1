import ComposeEmitters

/// Runs `body` collecting the diagnostics it reports (instead of printing them).
///
/// - Returns: What `body` returned, and the diagnostics' messages.
public func recordingDiagnostics<Result>(_ body: () throws -> Result) rethrows -> (Result, [String]) {
    let recorder = Recorder<String>()
    let result = try Diagnostics.withHandler({ recorder.record($0.message) }, operation: body)
    return (result, recorder.values)
}

/// The diagnostics `body` reports.
public func diagnostics(_ body: () throws -> Void) rethrows -> [String] {
    try recordingDiagnostics(body).1
}
