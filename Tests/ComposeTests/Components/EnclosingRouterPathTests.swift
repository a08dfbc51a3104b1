import Compose
import ComposeTestSupport
import Foundation
import Testing

/// A screen pushed through `@EnclosingRouter` is one route however it is written: a navigator
/// declares it through the router component's stored properties, a deep link opens it, the
/// current path reads it back, and the duplicate check sees it.
@Suite struct EnclosingRouterPathTests {
    struct LogInScreen: ParameterlessScreen { static let name = "login" }
    struct ResetScreen: ParameterlessScreen { static let name = "reset" }

    struct ResetPasswordComponent: Component {
        let goBack = SignalEmitter()
        @EnclosingRouter var router
        let reopen = SignalEmitter()

        var observers: Void {
            goBack += { router.pop() }
            reopen += { router.push(\Self.self) }  // itself, from inside
        }
    }

    struct LogInComponent: Component {
        let banner = SignalEmitter()  // so that `resetPassword` is not at offset 0
        let resetPassword = ResetPasswordComponent()
        @EnclosingRouter var router
        let openResetPassword = SignalEmitter()

        var observers: Void {
            openResetPassword += { router.push(\Self.resetPassword) }
        }
    }

    struct AuthComponent: RouterComponent {
        let title = SignalEmitter()
        let logIn = LogInComponent()
        let router = Router(start: \Self.logIn)
        var observers: Void { None }
    }

    static let navigator: Navigator = .screen(
        LogInScreen.self, route: \AuthComponent.logIn,
        nesting: .screen(ResetScreen.self, route: \AuthComponent.logIn.resetPassword)
    )

    @Test func aRoutePushedThroughTheEnclosingRouterIsTheOwnersKeyPathToTheSameComponent() {
        let host = ComponentHost(AuthComponent())
        host.root.logIn.openResetPassword.send()
        #expect(host.root.router.paths == [\AuthComponent.logIn, \LogInComponent.resetPassword])
        // The same component, written from the router's owner or from inside it: already there.
        let found = diagnostics {
            #expect(!host.root.router.push(\AuthComponent.logIn.resetPassword))
            host.root.logIn.resetPassword.reopen.send()
        }
        #expect(found.count == 2)
        #expect(found.allSatisfy { $0.contains("alreadyOnStack") })
        #expect(host.root.router.depth == 2)
        host.root.logIn.resetPassword.goBack.send()
        #expect(host.root.router.depth == 1)
        #expect(host.visibleIDs == ["AuthComponent", "AuthComponent/logIn"])
    }

    @Test func theCurrentPathReadsBackARoutePushedThroughTheEnclosingRouter() throws {
        let host = ComponentHost(AuthComponent())
        #expect(try host.routingPath(with: Self.navigator).description == "/login")
        host.root.logIn.openResetPassword.send()
        #expect(try host.routingPath(with: Self.navigator).description == "/login/reset")
    }

    @Test func aDeepLinkOpensAScreenPushedThroughTheEnclosingRouter() throws {
        let host = ComponentHost(AuthComponent())
        try host.open("/login/reset", with: Self.navigator)
        #expect(host.root.router.depth == 2)
        #expect(host.visibleIDs == ["AuthComponent", "AuthComponent/logIn/resetPassword"])
        // Pushed again from inside, it is the route the link made: refused, nothing doubles.
        let found = diagnostics { host.root.logIn.openResetPassword.send() }
        #expect(found.count == 1)
        #expect(host.root.router.depth == 2)
        // Back goes where the link came from, and the path reads back each time.
        #expect(try host.routingPath(with: Self.navigator).description == "/login/reset")
        host.root.logIn.resetPassword.goBack.send()
        #expect(try host.routingPath(with: Self.navigator).description == "/login")
        // Opening the current path changes nothing.
        host.root.logIn.openResetPassword.send()
        try host.open("/login/reset", with: Self.navigator)
        #expect(host.root.router.paths == [\AuthComponent.logIn, \LogInComponent.resetPassword])
    }

    @Test func aScreenDeclaredFromTheNestedComponentSaysHowToDeclareIt() {
        let navigator: Navigator = .screen(
            LogInScreen.self, route: \AuthComponent.logIn,
            nesting: .screen(ResetScreen.self, route: \LogInComponent.resetPassword)
        )
        let host = ComponentHost(AuthComponent())
        #expect {
            try host.open("/login/reset", with: navigator)
        } throws: { error in
            "\(error)"
                == "segment 1: reset is not a route of the router of AuthComponent: it is declared as "
                + "\\LogInComponent.resetPassword, and LogInComponent is not a router component; declare a component "
                + "pushed through an @EnclosingRouter from the router's component, through its stored properties "
                + "(\\AuthComponent.<path to LogInComponent>.resetPassword)"
        }
        #expect(host.root.router.depth == 1)
    }

    // MARK: Inside a created component

    struct EditorComponent: Component {
        let close = SignalEmitter()
        @EnclosingRouter var router
        let reopen = SignalEmitter()

        var observers: Void {
            reopen += { router.push(\Self.self) }
        }
    }

    struct NoteComponent: Component {
        let id: Int
        let editor = EditorComponent()
        @EnclosingRouter var router
        let edit = SignalEmitter()

        var observers: Void {
            edit += { router.push(\Self.editor) }
        }
    }

    struct NotesComponent: RouterComponent {
        let note = DynamicComponent<NoteComponent>()
        let router = Router()
        var observers: Void { None }
    }

    @Test func insideACreatedComponentOneComponentIsOneRouteFromEveryHolder() {
        let host = ComponentHost(NotesComponent())
        host.root.note.create(NoteComponent(id: 1))
        #expect(host.root.router.push(\NotesComponent.note))
        host.root.note.component?.edit.send()
        #expect(host.root.router.depth == 2)
        let found = diagnostics { host.root.note.component?.editor.reopen.send() }
        #expect(found.count == 1)
        #expect(host.root.router.depth == 2)
    }
}
