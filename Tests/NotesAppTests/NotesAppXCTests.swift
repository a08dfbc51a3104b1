import Compose
import ComposeTesting
import XCTest

/// The same app under XCTest, in a sandbox of its own.
final class NotesAppXCTests: XCTestCase {
    func testSavingTheDetailRenamesTheNote() async throws {
        try await withComposeSandbox { _ in
            let app = ComponentTester(NotesApp())
            let list = StoreTester(app.root.list.$state)
            list.send(app.root.list.add, "Groceries") {
                $0.notes = [Note(id: 1, title: "Groceries")]
                $0.nextID = 2
                $0.results = [1]
            }
            app.send(app.root.list.open, 1)
            let detail = try XCTUnwrap(app.root.list.detail.component)
            app.send(detail.edit, "Food")
            list.send(detail.save) { $0.notes[0].title = "Food" }
            await list.finish()
            app.unmount()
        }
    }

    /// A kept recording replays under XCTest as under Swift Testing; a changed app fails the test
    /// at the caller's line (here, expected: the divergence is read instead).
    func testTheKeptRecordingReplays() async throws {
        let replay = try SessionReplay(contentsOf: NotesRecordedFileTests.file)
        await replay.run(NotesApp(), navigator: NotesApp.navigator(for:))
        let divergence = await replay.firstDivergence(
            NotesApp(), services: { $0.titles = NoteTitles(clean: { $0 }) }, navigator: NotesApp.navigator(for:))
        XCTAssertEqual(divergence?.step, 1)
    }
}
