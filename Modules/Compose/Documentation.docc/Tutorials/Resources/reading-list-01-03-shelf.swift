import Compose

/// The shelf: every book, in the order it was added.
struct ShelfComponent: Component {
    struct State: AnyState {
        var books: [Book] = []
        var nextID = 1
    }

    @Store var state: State

    let add = ValueEmitter<NewBook>(label: "shelf.add")

    var observers: Void {
        add += { new in
            $state.mutate { shelf in
                shelf.books.append(Book(id: shelf.nextID, title: new.title, author: new.author))
                shelf.nextID += 1
            }
        }
    }
}
