import Compose
import ComposeTesting
import Foundation
import Testing

/// Sessions of the notes app recorded as a user makes them (sends from outside any handler, a
/// back gesture, a deep link, time passing), then replayed as tests.
@Suite(.composeSandbox(clock: .test))
struct NotesSessionTests {
    /// A user's session: notes typed and suggested, a search, a note opened and renamed, a back
    /// gesture, a deep link. Returns the recording.
    static func recordSession() async throws -> SessionRecording {
        let clock = try #require(ComposeSandbox.current?.testClock)
        let host = ComponentHost(NotesApp())
        let list = host.root.list
        let recorder = SessionRecorder(host)
        list.add.send("  Groceries ")
        await clock.settle(by: .milliseconds(800))
        list.add.send("Ideas")
        list.addSuggested.send()
        await clock.settle(by: .seconds(1))
        list.search.send("i")
        await clock.settle(by: .milliseconds(120))
        list.search.send("id")
        await clock.settle(by: .milliseconds(500))  // the search runs 300 ms after the last keystroke
        list.open.send(2)
        let detail = try #require(list.detail.component)
        detail.edit.send("Big ideas")
        detail.save.send()
        list.open.send(1)
        await clock.settle(by: .seconds(2))
        list.router.navigationPath = []  // a back gesture
        try host.open("notes://list/note?id=3", scheme: "notes", with: NotesApp.navigator(for: host.root))
        await clock.settle(by: .seconds(1))
        let recording = recorder.stop()
        host.unmount()
        return recording
    }

    @Test func aRecordedSessionReplaysStepForStep() async throws {
        let recording = try await Self.recordSession()
        #expect(
            recording.steps.compactMap(\.input).map(\.description) == [
                #"send notes.add "  Groceries " (NotesApp/list.add)"#,
                #"send notes.add "Ideas" (NotesApp/list.add)"#,
                "send notes.addSuggested (NotesApp/list.addSuggested)",
                #"send notes.search "i" (NotesApp/list.search)"#,
                #"send notes.search "id" (NotesApp/list.search)"#,
                "send notes.open 2 (NotesApp/list.open)",
                #"send detail.edit "Big ideas" (NotesApp/list/detail.edit)"#,
                "send detail.save (NotesApp/list/detail.save)",
                "send notes.open 1 (NotesApp/list.open)",
                "navigationPath NotesApp/list.router []",
                "open /list/note?id=3",
                "end",
            ])
        let suggestions = recording.steps.flatMap(\.results)
        #expect(suggestions.map(\.name) == ["titles.suggestion"])
        await SessionReplay(recording).run(NotesApp(), navigator: NotesApp.navigator(for:))
    }

    /// The file written is the file read: every step, checkpoint and result survives.
    @Test func aRecordingSurvivesItsFile() async throws {
        let recording = try await Self.recordSession()
        let read = try SessionRecording(jsonLines: recording.jsonLines)
        #expect(read == recording)
        let lines = String(decoding: recording.jsonLines, as: UTF8.self).split(separator: "\n")
        #expect(lines.count == recording.steps.count + 1)
        #expect(lines[0].hasPrefix(#"{"format":"compose-session","maximumBytes":1048576,"root":"NotesApp","version":1}"#))
    }

    /// The app changed on purpose (titles are no longer trimmed): the replay stops at the first
    /// step that adds an untrimmed title, and shows the list's state that differs.
    @Test func aChangedBehaviourIsReportedAtItsStep() async throws {
        let recording = try await Self.recordSession()
        let divergence = try #require(
            await SessionReplay(recording).firstDivergence(
                NotesApp(), services: { $0.titles = NoteTitles(clean: { $0 }) }, navigator: NotesApp.navigator(for:)))
        #expect(divergence.step == 1)
        #expect(divergence.input?.description == #"send notes.add "  Groceries " (NotesApp/list.add)"#)
        #expect(divergence.differences.map(\.name) == ["NotesApp/list.state"])
        #expect(
            divergence.description.contains(#"−        "title" : "Groceries""#) || divergence.description.contains("Groceries"))
    }

    /// Without the recorded suggestion the app would pick another: the replay hands out what the
    /// user got.
    @Test func serviceResultsComeFromTheRecording() async throws {
        let recording = try await Self.recordSession()
        let recorded = try #require(recording.steps.flatMap(\.results).first?.value)
        let replayed = await SessionReplay(recording).firstDivergence(
            NotesApp(),
            services: { $0.titles.suggest = { "never asked" } },
            navigator: NotesApp.navigator(for:))
        #expect(replayed == nil)
        #expect(recorded != .string("never asked"))
    }
}

/// A recording kept in the repository, as a bug report is kept in a test target: it replays
/// against the app as it is now. `compose-session` and CI's check of its page read it too.
/// `COMPOSE_RECORD_SESSIONS=1 swift test --filter NotesRecordedFileTests` records it again
/// (after a change of the schema or of the app's behaviour).
@Suite(.composeSandbox(clock: .test))
struct NotesRecordedFileTests {
    static let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Sessions/notes-session.jsonl")

    @Test func theKeptRecordingReplays() async throws {
        if ProcessInfo.processInfo.environment["COMPOSE_RECORD_SESSIONS"] == "1" {
            try await NotesSessionTests.recordSession().write(to: Self.file)
        }
        let replay = try SessionReplay(contentsOf: Self.file)
        #expect(replay.recording.steps.count == 13)
        await replay.run(NotesApp(), navigator: NotesApp.navigator(for:))
    }
}
