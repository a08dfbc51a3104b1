// A libFuzzer target for reading session recordings (a file a tester sent).
//
//   Scripts/fuzz session 60           # fuzz for 60 seconds (builds with -sanitize=fuzzer,address)
//   swift run FuzzSession FILE…        # replay inputs (a crash's, or the corpus) without libFuzzer
//
// Each input is a file's bytes, read as a recording. Any bytes must give a recording or a
// `SessionRecording.FormatError`, never a crash. What the documentation promises is checked too:
// - a recording read is written and read back as itself (a file is read as it was written);
// - its steps are numbered without gaps, from the marker's count or 0;
// - the whole state after each step can be rebuilt, and the starting state read.

import Compose
import Foundation
import FuzzSupport

/// Set `FUZZ_VERBOSE=1` to print each outcome when replaying.
let verbose = ProcessInfo.processInfo.environment["FUZZ_VERBOSE"] != nil

func check(_ bytes: UnsafeBufferPointer<UInt8>) {
    let recording: SessionRecording
    do {
        recording = try SessionRecording(jsonLines: Data(buffer: bytes))
    } catch {
        precondition(error.line >= 1, "a format error names no line: \(error)")
        if verbose { print(error) }
        return
    }
    let first = recording.dropped?.steps ?? 0
    for (offset, step) in recording.steps.enumerated() {
        precondition(step.number == first + offset, "step \(step.number) was read where step \(first + offset) is")
    }
    let written = recording.jsonLines
    do {
        let again = try SessionRecording(jsonLines: written)
        precondition(again == recording, "writing and reading a recording changed it")
    } catch {
        preconditionFailure("a recording that was read could not be read once written: \(error)")
    }
    precondition(recording.states.count == recording.steps.count, "a state is missing for a step")
    _ = recording.startingState
    if verbose { print("read \(recording.steps.count) steps of \(recording.root)") }
}

#if FUZZING
@_cdecl("FuzzSession_main")
func fuzzerMain(_ argc: CInt, _ argv: FuzzerArguments) -> CInt { runFuzzer(argc, argv, check) }
#else
/// Without libFuzzer: replays the files given (or every file of the directories given).
@main enum Replay { static func main() throws { try replay(CommandLine.arguments.dropFirst(), check) } }
#endif
