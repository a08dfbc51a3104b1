import ComposeEmitters
import ComposePersistence
import ComposeStore
import Foundation
import Testing

/// The "Persisting State" examples of Compose's README.
@Suite struct SeedExampleTests {
    // LogIn.swift, LogIn+State.swift
    struct LogInComponent {
        @Store var state: State

        // The README's `init() { $state.persistence.restore() }`; restoring throws here, since
        // failures are reported rather than printed and swallowed.
        init(directory: URL) {
            _state = Store(storage: FilePersistentStorage(key: "login-fields", directory: directory))
            _ = try? $state.persistence.restore()
        }

        struct State: Codable, AnyState {
            enum CodingKeys: CodingKey {
                case email
            }

            var email: String = ""
            var password: String = ""
            var shouldShowWelcomeMessage: Bool = false
        }
    }

    @Test func saveRestoreAndPurge() throws {
        let directory = TemporaryDirectory()
        let first = LogInComponent(directory: directory.url)
        first.state.email = "jill@example.com"
        first.state.password = "secret"
        first.state.shouldShowWelcomeMessage = true
        // `login += { state.persistence.save() }`
        try first.$state.persistence.save()

        // A new component (the app restarted) restores the persisted fields only.
        let second = LogInComponent(directory: directory.url)
        #expect(second.state.email == "jill@example.com")
        #expect(second.state.password == "")
        #expect(second.state.shouldShowWelcomeMessage == false)

        try second.$state.persistence.purge()
        let third = LogInComponent(directory: directory.url)
        #expect(third.state.email == "")
        #expect(directory.contents.isEmpty)
    }

    /// The README's declaration, exactly: the storage's directory comes from the override the
    /// test sets around the component's creation.
    struct SeedLogInComponent {
        @Store(storage: FilePersistentStorage(key: "login-fields")) var state: LogInComponent.State

        let login = SignalEmitter()

        var observers: Void {
            login += {
                try? $state.persistence.save()
            }
        }
    }

    @Test func theSeedDeclarationSavesThroughAnObserver() throws {
        let directory = TemporaryDirectory()
        let component = FilePersistentStorage.$directoryOverride.withValue(directory.url) { SeedLogInComponent() }
        let scope = ObservationScope()
        scope.run { component.observers }
        component.state.email = "jill@example.com"
        component.login.send()
        scope.end()
        #expect(directory.read("login-fields.json")?.contains("jill@example.com") == true)
    }

    @Test func theDefaultStorageDoesNothing() throws {
        struct State: Codable, AnyState { var value = 0 }
        let store = Store<State>()
        #expect(store.persistence.storage is EmptyPersistentStorage)
        store.state.value = 1
        try store.persistence.save()
        #expect(try store.persistence.restore() == false)
        #expect(store.state.value == 1)
    }

    @Test func theSavedFileIsHumanReadableJSONInAnEnvelope() throws {
        let directory = TemporaryDirectory()
        let component = LogInComponent(directory: directory.url)
        component.state.email = "jill@example.com"
        try component.$state.persistence.save()
        let text = try #require(directory.read("login-fields.json"))
        #expect(text.contains("\"compose\" : 1"))
        #expect(text.contains("\"version\" : 1"))
        #expect(text.contains("\"email\" : \"jill@example.com\""))
        #expect(!text.contains("password"))
        #expect(text.contains("\"savedAt\""))
        #expect(text.contains("\n"))  // pretty-printed
    }
}
