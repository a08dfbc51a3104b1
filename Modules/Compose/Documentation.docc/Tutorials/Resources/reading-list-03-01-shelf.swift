import Compose

/// The shelf: every book, in the order it was added, and the form that adds one. Saved as the
/// user changes it, restored when the app starts.
struct ShelfComponent: Component {
    struct State: AnyState, Codable {
        var books: [Book] = []
        var nextID = 1
    }

    @Store(storage: FilePersistentStorage(key: "shelf"), autosave: .coalescing(window: .milliseconds(500)))
    var state: State

    let form = AddBookComponent()

    let add = ValueEmitter<NewBook>(label: "shelf.add")
    let restore = SignalEmitter(label: "shelf.restore")

    var observers: Void {
        form.added += { add.send($0) }
        add += { new in
            $state.mutate { shelf in
                shelf.books.append(Book(id: shelf.nextID, title: new.title, author: new.author))
                shelf.nextID += 1
            }
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
}
