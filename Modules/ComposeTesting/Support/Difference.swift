import CustomDump

/// Readable differences for failure messages.
enum Difference {
    /// `(−expected, +actual)` and a line diff of the two values, or both dumped when the
    /// diff has nothing to show.
    static func describe<T>(expected: T, actual: T) -> String {
        if let diff = diff(expected, actual, format: .proportional) {
            return "(−expected, +actual)\n\n" + diff
        }
        var expectedDump = ""
        var actualDump = ""
        customDump(expected, to: &expectedDump)
        customDump(actual, to: &actualDump)
        return "\nexpected:\n\(expectedDump)\nactual:\n\(actualDump)"
    }
}
