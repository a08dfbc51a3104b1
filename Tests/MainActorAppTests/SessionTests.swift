import Compose
import ComposeTesting
import Testing

/// Sessions of a main-actor app: recorded as its views would make them, on the main actor, and
/// replayed from a main-actor test, without ceremony. The instance components it opens are
/// numbered the same in the recording and the replay.
@Suite(.composeSandbox(clock: .test))
struct MainActorSessionTests {
    @Test func aMainActorAppRecordsAndReplays() async throws {
        let host = ComponentHost(NotesApp())
        let recorder = SessionRecorder(host)
        try host.open("/home/page?number=3", with: notesNavigator)
        try host.open("/home/note?id=7", with: notesNavigator)
        host.root.note.component?.$note.binding.text.wrappedValue = "groceries"  // a text field
        host.root.router.navigationPath = []
        try host.open("/home/page?number=4", with: notesNavigator)
        let recording = recorder.stop()
        host.unmount()
        #expect(recording.steps.compactMap(\.input?.description).count == 6)
        #expect(recording.states.contains { $0.routers["NotesApp.router"] == ["NotesApp/home", "NotesApp/pages[#2]"] })
        await SessionReplay(recording).run(NotesApp(), navigator: { _ in notesNavigator })
    }
}
