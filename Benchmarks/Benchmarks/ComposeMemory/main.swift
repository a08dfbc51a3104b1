import Foundation

// The memory scenarios: the heap bytes one object costs, what an app pays for it.
//
// A process of their own, apart from the benchmark executable: package-benchmark counts
// allocations by interposing `malloc`, and its interposer adds a 16-byte header to every
// allocation, which the C allocator counts as bytes in use. Measured there, an object made of
// three allocations looked 48 bytes bigger than it is, and the figures favoured whichever side
// allocated less often. Here `malloc` is the C library's own.
//
// Each scenario makes 1,000 objects and keeps them, in an array reserved beforehand, and divides
// the growth of the C allocator's bytes in use by 1,000 (chunk headers and rounding included:
// they are what a process pays). Five runs, the median reported. `Scripts/bench` runs this and
// puts the figures in its table; it prints one JSON object, scenario name to bytes.
//
//     ComposeMemory [--filter <regular expression matching a whole scenario name>]

/// The scenarios whose whole name matches `--filter`, every one without it.
@MainActor
func selectedScenarios() -> [(name: String, measure: @Sendable () -> Int)] {
    let arguments = CommandLine.arguments
    guard let index = arguments.firstIndex(of: "--filter") else { return scenarios }
    guard index + 1 < arguments.count, let filter = try? Regex(arguments[index + 1]) else {
        FileHandle.standardError.write(Data("ComposeMemory: --filter needs a regular expression\n".utf8))
        exit(2)
    }
    return scenarios.filter { (try? filter.wholeMatch(in: $0.name)) != nil }
}

// One JSON object, scenario name to bytes (names hold no character JSON escapes).
let figures = selectedScenarios().map { "\"\($0.name)\": \($0.measure())" }
print("{" + figures.joined(separator: ", ") + "}")
