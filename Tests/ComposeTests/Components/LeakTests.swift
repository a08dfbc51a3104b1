import ComposeTestSupport
import Foundation
import Testing

@testable import Compose
@testable import ComposeStore

/// Mounting and unmounting a tree with routers, dynamic and instance components leaves
/// nothing behind: no observer, no component, no registry entry.
@Suite(.serialized) struct LeakTests {  // Serialized: the checks read process-wide registries.
    struct Counter: AnyState {
        var taps = 0
    }

    struct Editor: Component {
        let name: String
        @Store var state: Counter
        let close = SignalEmitter()
        @EnclosingRouter var router
        var observers: Void {
            close += { router.pop() }
            $state.observe(\.taps) { _ in }
        }
    }

    struct Player: Component {
        let next = InstanceComponent<Player>()
        @EnclosingRouter var router
        let open = SignalEmitter()
        var observers: Void {
            open += { router.push(\Self.next, instance: next.create(Player())) }
            didAppear += {}
        }
    }

    struct SoakRoot: RouterComponent {
        let player = Player()
        let editor = DynamicComponent<Editor>()
        let openEditor = SignalEmitter()
        let router = Router(start: \Self.player)
        var observers: Void {
            openEditor += {
                editor.create(Editor(name: "draft"))
                router.push(\Self.editor)
            }
            editor.didCreate += {}
        }
    }

    @Test func tenThousandMountsLeaveNothingBehind() async throws {
        let soakType = ObjectIdentifier(SoakRoot.self)
        let editorType = ObjectIdentifier(Editor.self)
        for round in 0..<10_000 {
            // A minute under ThreadSanitizer: other tests get this thread of the pool meanwhile.
            if round.isMultiple(of: 100) { await Task.yield() }
            weak var weakRoot: ComponentNode?
            weak var weakEditorStore: StoreStorage<Counter>?
            weak var weakPlayerNode: ComponentNode?
            var observers = 0
            do {
                let host = ComponentHost(SoakRoot())
                host.root.player.open.send()  // an instance, routed
                let nested = try #require(host.root.player.next.ids.first.flatMap(host.root.player.next.instance(for:)))
                nested.open.send()  // an instance of an instance
                host.root.openEditor.send()  // a dynamic component on top
                if round.isMultiple(of: 2) {
                    host.root.editor.component?.close.send()  // pop it: destroyed now
                }
                weakRoot = host.rootNode
                weakEditorStore = host.root.editor.component?.$state.storage
                weakPlayerNode = host.node(\.player)
                #expect(host.root.router.depth == (round.isMultiple(of: 2) ? 3 : 4))
                host.unmount()
                observers = host.activeObserverCount
                #expect(host.root.player.next.ids.isEmpty)
                #expect(!host.root.editor.isCreated)
            }
            if round.isMultiple(of: 500) || round == 9_999 {
                #expect(observers == 0)
                #expect(weakRoot == nil)
                #expect(weakEditorStore == nil)
                #expect(weakPlayerNode == nil)
                #expect(LiveNodes.nodes(of: soakType).isEmpty)
                #expect(LiveNodes.nodes(of: editorType).isEmpty)
            }
        }
    }

    @Test func aDestroyedComponentsObserversAreCancelledAndItIsFreed() throws {
        let host = ComponentHost(SoakRoot())
        host.root.openEditor.send()
        let editor = try #require(host.root.editor.component)
        weak let weakStorage = editor.$state.storage
        #expect(editor.close.subscriberCount == 1)
        editor.close.send()
        #expect(editor.close.subscriberCount == 0)
        #expect(editor.$state.storage.observerCount == 0)
        _ = consume editor
        #expect(weakStorage == nil)
        #expect(host.nodes.count == 2)  // the root and its player
    }
}
