import Compose
import ComposeTesting
import Foundation
import Testing

/// The seed's navigation, persistence and refs examples running in a main-actor target, through
/// main-actor hosts: their handlers call the app's main-actor code.
@Suite(.composeSandbox) struct SeedAppTests {
    @Test func theProfileSheetIsCreatedPushedAndDestroyed() throws {
        let host = ComponentHost(ProfileComponent())
        host.root.openEditProfile.send(ProfileObject(fullName: "Jill Valentine"))
        #expect(host.visibleIDs == ["ProfileComponent", "ProfileComponent/editProfile"])
        let edit = try #require(host.root.editProfile.component)
        edit.close.send()
        #expect(host.visibleIDs == ["ProfileComponent"])
        #expect(!host.root.editProfile.isCreated)
        let log = AppLog.shared.lines
        #expect(log.contains("created Jill Valentine") && log.contains("closed Jill Valentine") && log.contains("destroyed"))
        host.unmount()
    }

    @Test func nestedPlayersOpenAndCloseThroughTheirEnclosingRouter() throws {
        let host = ComponentHost(VideosComponent())
        host.root.player.openNext.send("second")
        let secondID = try #require(host.root.player.next.ids.first)
        let second = try #require(host.root.player.next.instance(for: secondID))
        second.openNext.send("third")
        #expect(host.root.router.depth == 3)
        #expect(AppLog.shared.lines.contains("playing third"))
        let third = try #require(second.next.ids.first.flatMap(second.next.instance(for:)))
        third.close.send()
        second.close.send()
        #expect(host.root.router.depth == 1)
        #expect(host.root.player.next.ids.isEmpty)
        host.unmount()
    }

    @Test func logInFieldsAreSavedFromAHandlerAndRestored() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("MainActorApp-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let host = ComponentHost(RememberedLogInComponent(directory: directory))
        host.root.state.email = "jill@example.com"
        host.root.state.password = "secret"
        host.root.login.send()
        #expect(AppLog.shared.lines.contains("saved jill@example.com"))
        host.unmount()

        let restored = RememberedLogInComponent(directory: directory)
        #expect(restored.state.email == "jill@example.com")
        #expect(restored.state.password == "")
    }

    @Test func specimensSharedByRefsNotifyMainActorObservers() {
        let host = ComponentHost(ExhibitionComponent())
        host.root.specimenA.$state.binding.specimen.name.wrappedValue = "Sad Square"
        #expect(host.root.state.specimen.name == "Sad Square")
        #expect(host.root.specimenB.state.specimen.name == "Sad Square")
        #expect(AppLog.shared.lines.filter { $0 == "specimen Sad Square" }.count == 2)  // A and B
        host.unmount()
    }
}
