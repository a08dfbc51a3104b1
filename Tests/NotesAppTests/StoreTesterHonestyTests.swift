import Compose
import ComposeTesting
import Foundation
import Testing

/// A `StoreTester` cannot be fooled by references: a wrong assertion about a note fails at its
/// own line and leaves the app's note alone, and a write to a note nobody asserted fails an
/// exhaustive test.
@Suite(.composeSandbox)
struct StoreTesterHonestyTests {
    @Test func aWrongAssertionAboutARefFailsAtItsLineAndLeavesTheEntity() async throws {
        let app = ComponentTester(NotesApp())
        let list = StoreTester(app.root.list.$state)
        NotesAppTests.addNotes(list, app.root.list)
        let line = #line + 2
        withKnownIssue {
            list.send(app.root.list.add, "Later") {
                $0.notes = [Note(id: 1, title: "Something else")]  // wrong, and it writes to note 1
                $0.nextID = 5
            }
        } matching: { issue in
            issue.sourceLocation?.line == line
                && issue.text.contains("does not match the expectation")
                && issue.text.contains("Something else")
        }
        // The app's note 1 is untouched.
        #expect(app.root.list.note(id: 1)?.value.title == "Groceries")
        #expect(app.root.list.state.notes.map(\.title) == ["Groceries", "Ideas", "Travel", "Later"])
        await list.finish()
        app.unmount()
    }

    @Test func anUnassertedRefWriteFailsAnExhaustiveTest() async throws {
        let app = ComponentTester(NotesApp())
        let list = StoreTester(app.root.list.$state)
        NotesAppTests.addNotes(list, app.root.list)
        app.send(app.root.list.open, 1)
        let detail = try #require(app.root.list.detail.component)
        app.send(detail.edit, "Renamed")
        let line = #line + 2
        withKnownIssue {
            list.send(detail.save)  // "nothing changes": but the save rewrote note 1
        } matching: { issue in
            issue.sourceLocation?.line == line
                && issue.text.contains("changed, and no change was asserted")
                && issue.text.contains("Renamed")
        }
        await list.finish()
        app.unmount()
    }

    /// A diff of states holding refs shows the notes' values, not the machinery that shares them.
    @Test func diffsShowRefsAsValues() async throws {
        let app = ComponentTester(NotesApp())
        let list = StoreTester(app.root.list.$state)
        NotesAppTests.addNotes(list, app.root.list)
        withKnownIssue {
            list.assert { $0.notes.removeLast() }
        } matching: { issue in
            let text = issue.text
            return text.contains("Travel") && !text.contains("RefEntry") && !text.contains("LockedState")
                && !text.contains("ObjectIdentifier") && text.split(separator: "\n").count < 20
        }
        await list.finish()
        app.unmount()
    }

    @Test func skipReceivedChangesTakesThemWithoutFailing() async throws {
        let app = ComponentTester(NotesApp())
        let list = StoreTester(app.root.list.$state)
        app.send(app.root.list.add, "Unchecked")  // not through the tester: a change it owes
        list.skipReceivedChanges()
        list.send(app.root.list.add, "Checked") {
            $0.notes.append(Note(id: 2, title: "Checked"))
            $0.nextID = 3
            $0.results = [1, 2]
        }
        await list.finish()
        app.unmount()
    }
}

extension Issue {
    /// The failure's message.
    var text: String {
        comments.map(\.rawValue).joined(separator: "\n")
    }
}
