import Compose

/// The app: a router whose start is the shelf, and the links it opens.
struct ReadingListApp: RouterComponent {
    let shelf = ShelfComponent()
    let router = Router(start: \Self.shelf)

    var observers: Void { None }

    struct ShelfScreen: ParameterlessScreen { static let name = "shelf" }

    struct BookScreen: Screen {
        static let name = "book"
        let id: Int
        init(id: Int) { self.id = id }
        init(parameters: ScreenParameters) throws { id = try parameters.required("id") }
        var parameters: ScreenParameters { ["id": "\(id)"] }
    }

    /// `books://shelf` and `books://shelf/book?id=3`. A book that is not on the shelf refuses
    /// the link, and nothing moves.
    static func navigator(for app: ReadingListApp) -> Navigator {
        let shelf = app.shelf
        return .screen(
            ShelfScreen.self, route: \ReadingListApp.shelf,
            nesting: .screen(
                BookScreen.self, route: \ShelfComponent.detail,
                find: { screen in shelf.book(id: screen.id).map { BookComponent(book: $0) } },
                read: { BookScreen(id: $0.state.book.id) }
            )
        )
    }
}
