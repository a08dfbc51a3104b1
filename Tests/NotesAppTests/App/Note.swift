import Compose

/// A note, shared by id between the list and the detail screen.
struct Note: Referable {
    let id: Int
    var title: String
    var body = ""
}
