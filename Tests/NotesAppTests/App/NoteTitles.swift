import Compose
import Foundation

/// Titles of new notes: what the user typed, cleaned; and a suggested title, which comes from
/// outside the app (a random pick here, a server in a real app), so a session recording records
/// it and a replay gets the same.
struct NoteTitles: Service, Sendable {
    var clean: @Sendable (String) -> String = { $0.trimmingCharacters(in: .whitespaces) }
    var suggest: @Sendable () -> String = { ["Errands", "Books", "Plans", "Recipes"].randomElement()! }

    init() {}

    init(clean: @escaping @Sendable (String) -> String) {
        self.clean = clean
    }

    func suggestion() -> String {
        (try? SessionRecorder.result(named: "titles.suggestion") { suggest() }) ?? "Untitled"
    }
}

extension Services {
    var titles: NoteTitles {
        get { self[NoteTitles.self] }
        nonmutating set { self[NoteTitles.self] = newValue }
    }
}
