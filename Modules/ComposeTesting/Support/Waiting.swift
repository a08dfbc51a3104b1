import ComposeEmitters

/// Waits, without sleeping longer than needed, until `condition` holds or `timeout` passes.
///
/// - Returns: Whether `condition` held in time.
func wait(until condition: () -> Bool, timeout: Duration) async -> Bool {
    let deadline = ContinuousClock.now.advanced(by: timeout)
    var pause = Duration.microseconds(50)
    while !condition() {
        guard ContinuousClock.now < deadline else { return condition() }
        await Task.yield()
        try? await Task.sleep(for: pause)
        pause = min(pause * 2, .milliseconds(10))
    }
    return true
}
