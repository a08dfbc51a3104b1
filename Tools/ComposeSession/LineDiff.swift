/// A line diff of two texts, by longest common subsequence: what a page shows for a state that
/// changed.
enum LineDiff {
    enum Line: Equatable {
        case same(String)
        case removed(String)
        case added(String)
    }

    /// The most cells the table of common subsequences may have (about 32 MB): past it, the
    /// lines between the common start and end are shown as removed, then added.
    static let maximumCells = 4_000_000

    static func lines(from old: String, to new: String) -> [Line] {
        let old = old.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let new = new.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // The common start and end, set aside: the table covers only what lies between.
        var start = 0
        while start < old.count, start < new.count, old[start] == new[start] { start += 1 }
        var end = 0
        while end < old.count - start, end < new.count - start, old[old.count - 1 - end] == new[new.count - 1 - end] { end += 1 }
        let head = old[..<start].map(Line.same)
        let tail = old[(old.count - end)...].map(Line.same)
        let a = Array(old[start..<(old.count - end)])
        let b = Array(new[start..<(new.count - end)])
        guard (a.count + 1).multipliedReportingOverflow(by: b.count + 1).partialValue <= maximumCells,
            (a.count + 1).multipliedReportingOverflow(by: b.count + 1).overflow == false
        else {
            return head + a.map(Line.removed) + b.map(Line.added) + tail
        }
        return head + middle(a, b) + tail
    }

    private static func middle(_ a: [String], _ b: [String]) -> [Line] {
        // lengths[i][j]: the longest common subsequence of a[i...] and b[j...].
        var lengths = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in stride(from: a.count - 1, through: 0, by: -1) {
            for j in stride(from: b.count - 1, through: 0, by: -1) {
                lengths[i][j] = a[i] == b[j] ? lengths[i + 1][j + 1] + 1 : max(lengths[i + 1][j], lengths[i][j + 1])
            }
        }
        var result: [Line] = []
        var (i, j) = (0, 0)
        while i < a.count || j < b.count {
            if i < a.count, j < b.count, a[i] == b[j] {
                result.append(.same(a[i]))
                i += 1
                j += 1
            } else if j < b.count, i == a.count || lengths[i][j + 1] >= lengths[i + 1][j] {
                result.append(.added(b[j]))
                j += 1
            } else {
                result.append(.removed(a[i]))
                i += 1
            }
        }
        return result
    }
}
