import Compose

/// A book on the shelf.
///
/// `Referable` makes it `Codable`, `Equatable`, `Identifiable` and `Sendable`: what a value
/// needs to be saved, compared, and shared by id between stores.
struct Book: Referable {
    let id: Int
    var title: String
    var author: String
    var isRead = false
}

/// What the user typed to add a book.
struct NewBook: Equatable, Sendable {
    var title: String
    var author: String
}
