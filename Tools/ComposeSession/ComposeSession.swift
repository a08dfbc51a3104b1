import ArgumentParser
import Compose
import Foundation

/// `compose-session`: reads a session recording (see `SessionRecording`) and shows it to a
/// person: its steps as text, or as a page with the timeline, the state changes and the router
/// stacks.
@main
struct ComposeSession: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compose-session",
        abstract: "Shows a Compose session recording (a .jsonl file a SessionRecorder wrote).",
        subcommands: [Summary.self, HTML.self]
    )

    struct Summary: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Prints the steps: time, input, what changed.")

        @Argument(help: "The recording.")
        var file: String

        func run() throws {
            print(SessionSummary(try ComposeSession.read(file)).text, terminator: "")
        }
    }

    struct HTML: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Writes a self-contained page: the timeline of inputs, the state diff at each step, the router stacks.")

        @Argument(help: "The recording.")
        var file: String

        @Option(name: .shortAndLong, help: "Where to write the page.")
        var output: String

        func run() throws {
            let page = SessionPage(try ComposeSession.read(file), title: URL(fileURLWithPath: file).lastPathComponent).html
            try Data(page.utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
        }
    }

    /// A file that cannot be shown: printed as `Error: <description>`, without the usage.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The recording in `path`, or a message naming what is wrong with it.
    static func read(_ path: String) throws -> SessionRecording {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw Failure(description: "Cannot read \(path): \(error.localizedDescription)")
        }
        do {
            return try SessionRecording(jsonLines: data)
        } catch {
            throw Failure(description: "\(path): \(error)")
        }
    }
}
