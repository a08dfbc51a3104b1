import Compose

/// The app: a router whose start is the list of notes.
struct NotesApp: RouterComponent {
    let list = NoteListComponent()
    let router = Router(start: \Self.list)

    var observers: Void { None }

    struct ListScreen: ParameterlessScreen { static let name = "list" }

    struct NoteScreen: Screen {
        static let name = "note"
        let id: Int
        init(id: Int) { self.id = id }
        init(parameters: ScreenParameters) throws { id = try parameters.required("id") }
        var parameters: ScreenParameters { ["id": "\(id)"] }
    }

    /// `notes://list` and `notes://list/note?id=3`. A note that does not exist refuses the
    /// link: nothing opens.
    static func navigator(for app: NotesApp) -> Navigator {
        let list = app.list
        return .screen(
            ListScreen.self, route: \NotesApp.list,
            nesting: .screen(
                NoteScreen.self, route: \NoteListComponent.detail,
                find: { screen in list.note(id: screen.id).map { NoteDetailComponent(note: $0) } },
                read: { NoteScreen(id: $0.id) }
            )
        )
    }
}
