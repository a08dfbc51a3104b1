import Compose
import ComposePersistence
import ComposeRefs
import Foundation

/// The list of notes: add (a title typed, or suggested), open, search (debounced). Persisted
/// with autosave.
struct NoteListComponent: RouterComponent {
    struct State: AnyState, Codable {
        @RefCollection var notes: [Note] = []
        var nextID = 1
        var query = ""
        /// The ids of the notes whose title contains the query (all notes when it is empty).
        var results: [Int] = []

        private enum CodingKeys: String, CodingKey {
            case notes, nextID  // the query and its results are not saved
        }
    }

    @Store(storage: FilePersistentStorage(key: "notes"), autosave: .coalescing(window: .milliseconds(300)), label: "notes")
    var state: State

    let detail = DynamicComponent<NoteDetailComponent>()
    let router = Router(label: "notes")

    let add = ValueEmitter<String>(label: "notes.add")
    let addSuggested = SignalEmitter(label: "notes.addSuggested")
    let open = ValueEmitter<Int>(label: "notes.open")
    let search = ValueEmitter<String>(label: "notes.search")
    let restore = SignalEmitter(label: "notes.restore")

    var observers: Void {
        add += { title in
            let title = services.titles.clean(title)
            $state.mutate { state in
                state.notes.append(Note(id: state.nextID, title: title))
                state.nextID += 1
                state.results = Self.search(state.notes, for: state.query)
            }
        }
        addSuggested += { add.send(services.titles.suggestion()) }
        open += { id in
            guard let index = state.notes.firstIndex(where: { $0.id == id }) else { return }
            detail.create(NoteDetailComponent(note: state.$notes[index]))
            router.push(\Self.detail)
        }
        // What the user types is searched once typing pauses (on `services.clock`).
        search.undup().debounce(interval: .milliseconds(300), clock: services.clock) += { query in
            $state.mutate { state in
                state.query = query
                state.results = Self.search(state.notes, for: query)
            }
        }
        restore += {
            _ = try? $state.persistence.restore()
            $state.mutate { state in state.results = Self.search(state.notes, for: state.query) }
        }
    }

    /// The note with `id`, for a deep link.
    func note(id: Int) -> Referred<Note>? {
        let notes = state
        return notes.notes.firstIndex { $0.id == id }.map { notes.$notes[$0] }
    }

    static func search(_ notes: [Note], for query: String) -> [Int] {
        notes.filter { query.isEmpty || $0.title.localizedCaseInsensitiveContains(query) }.map(\.id)
    }
}
