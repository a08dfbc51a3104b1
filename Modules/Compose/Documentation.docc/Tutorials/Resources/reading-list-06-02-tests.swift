import Compose
import ComposeTesting
import Foundation
import Testing

@testable import ReadingList

/// A session recorded as the app runs, replayed as a test.
@Suite(.composeSandbox(clock: .test))
struct SessionTests {
    /// What a tester did before reporting a bug, done here as the screens would do it.
    static func recordSession(to file: URL) async throws {
        let clock = try #require(ComposeSandbox.current?.testClock)
        let host = ComponentHost(ReadingListApp())
        let reporter = BugReporter(host: host)
        let shelf = host.root.shelf

        shelf.form.title.send("Dune")
        shelf.form.author.send("Frank Herbert")
        shelf.form.submit.send()
        await clock.settle(by: .seconds(2))
        shelf.form.title.send("Emma")
        shelf.form.author.send("Jane Austen")
        shelf.form.submit.send()
        shelf.open.send(2)
        shelf.detail.component?.toggleRead.send()
        await clock.settle(by: .seconds(1))
        shelf.router.navigationPath = []  // the back gesture

        try reporter.writeReport(to: file)
        host.unmount()
    }

    /// The tester's report, kept with the package as a bug report's file is: recorded the first
    /// time the test runs, replayed every time after.
    static let report = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Reports/shelf-session.jsonl")

    @Test func aReportedSessionReplays() async throws {
        if !FileManager.default.fileExists(atPath: Self.report.path) {
            try FileManager.default.createDirectory(
                at: Self.report.deletingLastPathComponent(), withIntermediateDirectories: true)
            try await Self.recordSession(to: Self.report)
        }

        let replay = try SessionReplay(contentsOf: Self.report)
        #expect(replay.recording.steps.count == 11)  // the start, nine inputs, the end
        await replay.run(ReadingListApp(), navigator: ReadingListApp.navigator(for:))
    }
}
