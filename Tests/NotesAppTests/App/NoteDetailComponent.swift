import Compose
import ComposeValidation

/// One note, adopted by id from the list: editing its title, saving, closing.
struct NoteDetailComponent: Component {
    struct State: AnyState {
        @Ref var note: Note
        var draft = ""

        @ValidationBuilder
        var validation: Validation {
            Field(draft, name: "title", rules: [.nonBlank: "A note needs a title", .length(...100): "At most 100 characters"])
        }
    }

    @Store var state: State
    @EnclosingRouter var router

    let edit = ValueEmitter<String>(label: "detail.edit")
    let save = SignalEmitter(label: "detail.save")
    let close = SignalEmitter(label: "detail.close")

    init(note: Referred<Note>) {
        var state = State()
        state.$note = note
        state.draft = note.value.title
        _state = Store(wrappedValue: state)
    }

    var observers: Void {
        edit += { $state.draft = $0 }
        save += {
            let current = state
            guard current.validation.isValid else { return }
            $state.note.title = current.draft  // the shared note: the list reads it at once
            router.pop()
        }
        close += { router.pop() }
    }

    var id: Int { state.note.id }
}
