import Compose
import ComposeTesting
import Foundation
import Testing

/// The notes app, one test per feature. Every test makes notes 1, 2, 3 of its own and tests run
/// in parallel: without the sandbox they would write into each other's notes.
@Suite(.composeSandbox(clock: .test))
struct NotesAppTests {
    /// Adds three notes through the list's emitter, checking each step.
    static func addNotes(_ list: StoreTester<NoteListComponent.State>, _ app: NoteListComponent) {
        for (index, title) in ["Groceries", "Ideas", "Travel"].enumerated() {
            list.send(app.add, title) {
                $0.notes.append(Note(id: index + 1, title: title))
                $0.nextID = index + 2
                $0.results.append(index + 1)
            }
        }
    }

    @Test func addingNotesListsThem() async {
        let app = ComponentTester(NotesApp())
        let list = StoreTester(app.root.list.$state)
        Self.addNotes(list, app.root.list)
        await list.finish()
        app.unmount()
    }

    @Test func openingANoteShowsItsDetail() async {
        let app = ComponentTester(NotesApp())
        let list = StoreTester(app.root.list.$state)
        Self.addNotes(list, app.root.list)
        app.send(app.root.list.open, 2)
        app.expectVisible(["NotesApp", "NotesApp/list", "NotesApp/list/detail"])
        #expect(app.root.list.detail.component?.state.note.title == "Ideas")
        await list.finish()
        app.unmount()
    }

    /// The detail adopts note 2 by id; saving rewrites the shared note, which the list reads at
    /// once: a change of the list's state, asserted like any other.
    @Test func savingTheDetailRenamesTheNoteInTheList() async throws {
        let app = ComponentTester(NotesApp())
        let list = StoreTester(app.root.list.$state)
        Self.addNotes(list, app.root.list)
        app.send(app.root.list.open, 2)
        let detail = try #require(app.root.list.detail.component)
        app.send(detail.edit, "Big ideas")
        list.send(detail.save) {
            $0.notes[1].title = "Big ideas"
        }
        app.expectVisible(["NotesApp", "NotesApp/list"])  // popped itself
        #expect(!app.root.list.detail.isCreated)
        await list.finish()
        app.unmount()
    }

    @Test func aBlankTitleIsNotSaved() async throws {
        let app = ComponentTester(NotesApp())
        let list = StoreTester(app.root.list.$state)
        Self.addNotes(list, app.root.list)
        app.send(app.root.list.open, 1)
        do {  // the test lets go of the component before unmounting, as a screen would
            let detail = try #require(app.root.list.detail.component)
            app.send(detail.edit, "   ")
            #expect(detail.state.validation.message(for: "title") == "A note needs a title")
            list.send(detail.save)  // nothing changes: the shared note keeps its title
        }
        app.expectVisible(["NotesApp", "NotesApp/list", "NotesApp/list/detail"])
        await list.finish()
        app.unmount()
    }

    /// Search runs once typing pauses for 300 ms of the sandbox's test clock.
    @Test func searchWaitsForTypingToPause() async throws {
        let clock = try #require(ComposeSandbox.current?.testClock)
        let app = ComponentTester(NotesApp())
        let list = StoreTester(app.root.list.$state)
        Self.addNotes(list, app.root.list)
        list.send(app.root.list.search, "i")
        list.send(app.root.list.search, "id")
        await clock.advance(by: .milliseconds(299))
        list.assert { _ in }  // nothing yet
        // `advance(by:until:)` also wakes a timer task that started sleeping late, on a busy
        // machine, after the clock had already reached its deadline.
        await clock.advance(by: .milliseconds(1)) { app.root.list.$state.query == "id" }
        await list.receive {
            $0.query = "id"
            $0.results = [2]
        }
        await list.finish()
        app.unmount()
    }

    /// Notes are saved by autosave in the sandbox's directory, and a new app restores them.
    @Test func notesSurviveARestart() async throws {
        do {
            let app = ComponentTester(NotesApp())
            let list = StoreTester(app.root.list.$state)
            Self.addNotes(list, app.root.list)
            try await app.root.list.$state.persistence.flush()
            await list.finish()
            app.unmount()
        }
        let directory = try #require(ComposeSandbox.current?.directory)
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("notes.json").path))
        let restarted = ComponentTester(NotesApp())
        restarted.send(restarted.root.list.restore)
        #expect(restarted.root.list.state.notes.map(\.title) == ["Groceries", "Ideas", "Travel"])
        #expect(restarted.root.list.state.results == [1, 2, 3])
        restarted.unmount()
    }

    @Test func aDeepLinkOpensANote() async throws {
        let app = ComponentTester(NotesApp())
        let list = StoreTester(app.root.list.$state)
        Self.addNotes(list, app.root.list)
        app.navigate(to: "notes://list/note?id=3", scheme: "notes", with: NotesApp.navigator(for: app.root))
        app.expectVisible(["NotesApp", "NotesApp/list", "NotesApp/list/detail"])
        #expect(app.root.list.detail.component?.state.note.title == "Travel")
        app.expectPath("/list/note?id=3", with: NotesApp.navigator(for: app.root))
        await list.finish()
        app.unmount()
    }

    /// A link to a note that does not exist is refused, naming the segment, and changes nothing.
    @Test func aDeepLinkToAMissingNoteIsRefused() async throws {
        let app = ComponentTester(NotesApp())
        let list = StoreTester(app.root.list.$state)
        Self.addNotes(list, app.root.list)
        #expect {
            try app.host.open("notes://list/note?id=9", scheme: "notes", with: NotesApp.navigator(for: app.root))
        } throws: { error in
            (error as? DeepLinkError)
                == DeepLinkError(segment: 1, .refused(screen: "note", reason: "nothing was found for note?id=9"))
        }
        app.expectVisible(["NotesApp", "NotesApp/list"])
        #expect(!app.root.list.detail.isCreated)
        await list.finish()
        app.unmount()
    }

    /// The same ids in every test, at once: each test sees its own notes. (Run in parallel with
    /// the others; it fails if any other test's note 1 leaks in.)
    @Test(arguments: 0..<8)
    func parallelTestsNeverSeeEachOthersNotes(run: Int) async {
        let app = ComponentTester(NotesApp())
        let list = StoreTester(app.root.list.$state)
        Self.addNotes(list, app.root.list)
        let referred = app.root.list.note(id: 1)
        referred?.value.title = "Run \(run)"
        await list.receive { $0.notes[0].title = "Run \(run)" }
        for _ in 0..<50 { await Task.yield() }
        #expect(app.root.list.state.notes.map(\.title) == ["Run \(run)", "Ideas", "Travel"])
        await list.finish()
        app.unmount()
    }
}
