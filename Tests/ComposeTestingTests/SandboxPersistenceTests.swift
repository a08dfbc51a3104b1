import Compose
import ComposePersistence
import ComposeTestSupport
import ComposeTesting
import Dispatch
import Foundation
import Testing

/// What becomes of a save into a sandbox's directory once the sandbox has ended, and of work that
/// leaves the sandbox's task tree.
@Suite struct SandboxPersistenceTests {
    struct State: AnyState, Codable {
        var value = 0
    }

    /// A store made in a sandbox outlives it, and its autosave window closes after the sandbox
    /// ended: the save is refused and reported, and the directory stays gone.
    @Test func aDebouncedSaveThatFiresAfterTheSandboxEndedIsRefusedAndReported() async throws {
        let (store, clock, directory) = try withComposeSandbox(clock: .test) { sandbox in
            let store = Store<State>(storage: FilePersistentStorage(key: "late"), autosave: .coalescing(window: .seconds(1)))
            store.state.value = 1  // saved at once, and opens a window
            return (store, try #require(sandbox.testClock), sandbox.directory)
        }
        defer { try? FileManager.default.removeItem(at: directory) }  // if a check fails
        #expect(!FileManager.default.fileExists(atPath: directory.path))
        let errors = store.persistence.errors.record()
        store.state.value = 2  // gathered: saved when the window closes, after the sandbox ended
        await clock.settle(by: .seconds(1))
        await #expect(throws: PersistenceError.self) { try await store.persistence.flush() }
        #expect(!FileManager.default.fileExists(atPath: directory.path))
        #expect(errors.values.count == 1)
        #expect(errors.values.first.map { "\($0)".contains("has ended") } == true)
    }

    /// A storage for a sandbox's directory made inside another sandbox (or outside any) belongs
    /// to the sandbox whose directory it is: once both have ended, saving there is refused and
    /// the directory stays gone.
    @Test func aStorageForASandboxsDirectoryMadeElsewhereBelongsToThatSandbox() throws {
        let (stores, directory) = withComposeSandbox(label: "outer") { outer in
            let inner = withComposeSandbox(label: "inner") { _ in
                Store<State>(storage: FilePersistentStorage(key: "inner", directory: outer.directory))
            }
            // Made on a thread of its own: outside any sandbox.
            let outside = LockedBox<Store<State>?>(nil)
            let made = DispatchSemaphore(value: 0)
            startThread {
                outside.mutate { $0 = Store<State>(storage: FilePersistentStorage(key: "outside", directory: outer.directory)) }
                made.signal()
            }
            made.wait()
            return ([inner, outside.value!], outer.directory)
        }
        defer { try? FileManager.default.removeItem(at: directory) }  // if a check fails
        #expect(!FileManager.default.fileExists(atPath: directory.path))
        for store in stores {
            store.state.value = 1
            #expect(throws: PersistenceError.self) { try store.persistence.save() }
        }
        #expect(!FileManager.default.fileExists(atPath: directory.path))
    }

    /// A task the sandbox started makes a store once the sandbox has ended: its storage is still
    /// in the sandbox's directory, and saving there is refused.
    @Test func aStoreMadeByATaskOfTheSandboxAfterItEndedCannotSaveThere() async throws {
        let (go, start) = AsyncStream<Void>.makeStream()
        let (task, directory) = withComposeSandbox { sandbox in
            let task = Task {
                for await _ in go { break }
                let storage = FilePersistentStorage(key: "after")
                let store = Store<State>(storage: storage)
                store.state.value = 1
                return (storage.directory, Result { () throws(PersistenceError) in try store.persistence.save() })
            }
            return (task, sandbox.directory)
        }
        defer { try? FileManager.default.removeItem(at: directory) }  // if a check fails
        start.yield()
        let (used, saved) = await task.value
        #expect(used == directory)
        #expect(throws: PersistenceError.self) { try saved.get() }
        #expect(!FileManager.default.fileExists(atPath: directory.path))
    }

    /// `Task.detached` runs outside the sandbox, as it runs outside every task-local value: it
    /// sees no sandbox, the process's entities and services, and the default directory, unless
    /// it enters the sandbox. A child task (`Task { }`) runs in it.
    @Test func aDetachedTaskRunsOutsideTheSandbox() async {
        struct Note: Referable {
            let id: UUID
            var title: String
        }
        let id = UUID()
        let processCounter = Services.current[SandboxTests.Counter.self].made
        await withComposeSandbox(label: "detached") { sandbox in
            let note = Referred(Note(id: id, title: "inside"))
            let sandboxCounter = Services.current[SandboxTests.Counter.self].made
            @Sendable func look() -> (sandbox: String?, directory: URL, note: String, counter: UUID) {
                (
                    ComposeSandbox.current?.label, FilePersistentStorage(key: "k").directory,
                    Referred(Note(id: id, title: "made here")).value.title, Services.current[SandboxTests.Counter.self].made
                )
            }
            let child = await Task { look() }.value
            #expect(child.sandbox == "detached")
            #expect(child.directory == sandbox.directory)
            #expect(child.note == "inside")
            #expect(child.counter == sandboxCounter)

            let detached = await Task.detached { look() }.value
            #expect(detached.sandbox == nil)
            #expect(detached.directory == FilePersistentStorage.defaultDirectory)
            #expect(detached.note == "made here")  // another entity: the process's
            #expect(detached.counter == processCounter)

            let entered = await Task.detached { sandbox.run { look() } }.value
            #expect(entered.sandbox == "detached")
            #expect(entered.note == "inside")
            withExtendedLifetime(note) {}
        }
    }
}
