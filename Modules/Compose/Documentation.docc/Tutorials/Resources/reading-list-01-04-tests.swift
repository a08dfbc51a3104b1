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
}
