import Compose

/// One book's screen. Its `@Ref` adopts the shelf's book by id: both read and write one value.
struct BookComponent: Component {
    struct State: AnyState {
        @Ref var book: Book
    }

    @Store var state: State
    @EnclosingRouter var router

    let toggleRead = SignalEmitter(label: "book.toggleRead")
    let close = SignalEmitter(label: "book.close")

    init(book: Referred<Book>) {
        var state = State()
        state.$book = book
        _state = Store(wrappedValue: state)
    }

    var observers: Void {
        toggleRead += { state.$book.mutate { $0.isRead.toggle() } }
        close += { router.pop() }
    }
}
