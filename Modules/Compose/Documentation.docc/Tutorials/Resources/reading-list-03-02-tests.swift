import Compose
import ComposeTesting
import Testing

@testable import ReadingList

/// Each test runs in a sandbox of its own: its own books, saves and clock, so tests run in
/// parallel without seeing each other's shelves.
@Suite(.composeSandbox(clock: .test))
struct ReadingListTests {
    @Test func addingBooksPutsThemOnTheShelf() async {
        let app = ComponentTester(ShelfComponent())
        let shelf = StoreTester(app.root.$state)

        shelf.send(app.root.add, NewBook(title: "Dune", author: "Frank Herbert")) {
            $0.books.append(Book(id: 1, title: "Dune", author: "Frank Herbert"))
            $0.nextID = 2
        }
        await shelf.finish()
        app.unmount()
    }

    @Test func theFormAddsABookAndEmptiesItself() async {
        let app = ComponentTester(ShelfComponent())
        let shelf = StoreTester(app.root.$state)
        let form = app.root.form

        app.send(form.title, "Dune")
        app.send(form.author, "Frank Herbert")
        shelf.send(form.submit) {
            $0.books.append(Book(id: 1, title: "Dune", author: "Frank Herbert"))
            $0.nextID = 2
        }
        #expect(form.state.title == "")
        await shelf.finish()
        app.unmount()
    }

    @Test func aBlankTitleIsRefused() async {
        let app = ComponentTester(ShelfComponent())
        let shelf = StoreTester(app.root.$state)
        let form = app.root.form

        app.send(form.title, "   ")
        app.send(form.author, "Nobody")
        shelf.send(form.submit)  // nothing changes on the shelf
        #expect(form.state.validation.message(for: "title") == "A book needs a title")
        await shelf.finish()
        app.unmount()
    }

    /// Autosave writes the shelf to the sandbox's directory; a new app restores it.
    @Test func theShelfSurvivesARestart() async throws {
        do {
            let app = ComponentTester(ShelfComponent())
            app.send(app.root.add, NewBook(title: "Dune", author: "Frank Herbert"))
            app.send(app.root.add, NewBook(title: "Emma", author: "Jane Austen"))
            try await app.root.$state.persistence.flush()
            app.unmount()
        }
        let restarted = ComponentTester(ShelfComponent())
        restarted.send(restarted.root.restore)
        #expect(restarted.root.state.books.map(\.title) == ["Dune", "Emma"])
        #expect(restarted.root.state.nextID == 3)
        restarted.unmount()
    }
}
