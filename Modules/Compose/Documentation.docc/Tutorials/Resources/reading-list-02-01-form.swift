import Compose

/// The form that adds a book: a title and an author, checked as the user types.
struct AddBookComponent: Component {
    struct State: AnyState {
        var title = ""
        var author = ""

        @ValidationBuilder
        var validation: Validation {
            Field(title, name: "title", rules: [.nonBlank: "A book needs a title", .length(...200): "At most 200 characters"])
            Field(author, name: "author", rules: [.nonBlank: "Who wrote it?"])
        }
    }

    @Store var state: State

    // What the user does.
    let title = ValueEmitter<String>(label: "form.title")
    let author = ValueEmitter<String>(label: "form.author")
    let submit = SignalEmitter(label: "form.submit")

    // What the form tells its parent.
    let added = ValueEmitter<NewBook>(label: "form.added")

    var observers: Void {
        title += { $state.title = $0 }
        author += { $state.author = $0 }
        submit += {
            let form = state
            guard form.validation.isValid else { return }
            added.send(NewBook(title: form.title, author: form.author))
            $state.mutate { $0 = State() }  // an empty form for the next book
        }
    }
}
