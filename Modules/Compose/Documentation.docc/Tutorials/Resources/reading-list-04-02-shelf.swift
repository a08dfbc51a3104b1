import Compose

/// The shelf: every book, the form that adds one, and a router that opens a book.
struct ShelfComponent: RouterComponent {
    struct State: AnyState, Codable {
        @RefCollection var books: [Book] = []
        var nextID = 1
    }

    @Store(storage: FilePersistentStorage(key: "shelf"), autosave: .coalescing(window: .milliseconds(500)))
    var state: State

    let form = AddBookComponent()
    let detail = DynamicComponent<BookComponent>()
    let router = Router(label: "shelf")

    let add = ValueEmitter<NewBook>(label: "shelf.add")
    let open = ValueEmitter<Int>(label: "shelf.open")
    let restore = SignalEmitter(label: "shelf.restore")

    var observers: Void {
        form.added += { add.send($0) }
        add += { new in
            $state.mutate { shelf in
                shelf.books.append(Book(id: shelf.nextID, title: new.title, author: new.author))
                shelf.nextID += 1
            }
        }
        open += { id in
            guard let book = book(id: id) else { return }
            detail.create(BookComponent(book: book))
            router.push(\Self.detail)
        }
        restore += {
            do {
                _ = try $state.persistence.restore()
            } catch {
                // A save that cannot be read is moved aside, never deleted; the shelf stays as it is.
                print("The saved shelf could not be read: \(error)")
            }
        }
    }

    /// The shelf's book with `id`, shared: a `Referred` that a `@Ref` adopts.
    func book(id: Int) -> Referred<Book>? {
        let shelf = state
        return shelf.books.firstIndex { $0.id == id }.map { shelf.$books[$0] }
    }
}
