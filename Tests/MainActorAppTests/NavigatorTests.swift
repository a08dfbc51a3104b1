import Compose
import Foundation
import Testing

// A navigator declared in a main-actor target (`.defaultIsolation(MainActor.self)`), as an Xcode
// app writes it: components with `@Store`, no `nonisolated`, stored, dynamic and instance routes.

struct NotesHomeScreen: ParameterlessScreen { static let name = "home" }
struct NotesSettingsScreen: ParameterlessScreen { static let name = "settings" }

struct NoteScreen: Screen {
    static let name = "note"
    let id: Int
    init(id: Int) { self.id = id }
    init(parameters: ScreenParameters) throws { id = try parameters.required("id") }
    var parameters: ScreenParameters { ["id": "\(id)"] }
}

struct PageScreen: Screen {
    static let name = "page"
    let number: Int
    init(number: Int) { self.number = number }
    init(parameters: ScreenParameters) throws { number = try parameters.required("number") }
    var parameters: ScreenParameters { ["number": "\(number)"] }
}

struct NoteState: AnyState, Codable {
    var text = ""
}

struct NotesHome: Component { var observers: Void { None } }
struct NotesSettings: Component { var observers: Void { None } }

struct NoteComponent: Component {
    let id: Int
    @Store var note = NoteState()
    var observers: Void {
        $note.observe(\.text) { text in AppLog.shared.record("note \(id): \(text)") }
    }
}

/// A component with an initialiser of its own: in this target it is main-actor isolated, so a
/// `make:` closure calling it must run on the main actor (it takes the isolation it is written in).
struct PageComponent: Component {
    let number: Int
    let opened: String

    init(number: Int) {
        self.number = number
        AppLog.shared.record("page \(number) made")
        opened = "page \(number)"
    }

    var observers: Void { None }
}

struct NotesApp: RouterComponent {
    let home = NotesHome()
    let settings = NotesSettings()
    let note = DynamicComponent<NoteComponent>()
    let pages = InstanceComponent<PageComponent>()
    let router = Router(start: \Self.home)
    var observers: Void { None }
}

/// In a computed property (or a function), closures take the main actor from the code around them.
var notesNavigator: Navigator {
    .screen(
        NotesHomeScreen.self, route: \NotesApp.home,
        nesting: .anyOf(
            .screen(NotesSettingsScreen.self, route: \NotesApp.settings),
            .screen(NoteScreen.self, route: \NotesApp.note, make: { NoteComponent(id: $0.id) }, read: { NoteScreen(id: $0.id) }),
            .screen(
                PageScreen.self, route: \NotesApp.pages, make: { PageComponent(number: $0.number) },
                read: { PageScreen(number: $0.number) })
        )
    )
}

@Suite struct MainActorNavigatorTests {
    @Test func deepLinksOpenStoredDynamicAndInstanceRoutes() throws {
        let host = ComponentHost(NotesApp())
        try host.open("notes://home/note?id=7", scheme: "notes", with: notesNavigator)
        #expect(host.root.router.paths == [\NotesApp.home, \NotesApp.note])
        let note = try #require(host.root.note.component)
        #expect(note.id == 7)
        note.note.text = "groceries"
        #expect(AppLog.shared.lines.contains("note 7: groceries"))
        #expect(try host.routingPath(with: notesNavigator).description == "/home/note?id=7")

        try host.open("/home/page?number=3", with: notesNavigator)
        #expect(host.root.pages.ids.count == 1)
        #expect(AppLog.shared.lines.contains("page 3 made"))
        #expect(try host.routingPath(with: notesNavigator).description == "/home/page?number=3")
        #expect(!host.root.note.isCreated)  // its route went: destroyed

        try host.open("/home/settings", with: notesNavigator)
        #expect(host.visibleIDs == ["NotesApp", "NotesApp/settings"])
        #expect(try host.routingPath(with: notesNavigator).description == "/home/settings")
        host.unmount()
    }
}

/// A navigator in a global `let`: Swift runs a global's initialiser outside any actor, so its
/// closures are nonisolated unless marked; one calling a main-actor initialiser says `@MainActor`.
let pagesNavigator: Navigator = .screen(
    PageScreen.self, route: \NotesApp.pages, make: { @MainActor in PageComponent(number: $0.number) })

extension MainActorNavigatorTests {
    @Test func aGlobalNavigatorsMainActorMakeRunsOnTheMainActor() throws {
        let host = ComponentHost(NotesApp())
        try host.open("/page?number=5", with: pagesNavigator)
        #expect(AppLog.shared.lines.contains("page 5 made"))
        host.unmount()
    }
}
