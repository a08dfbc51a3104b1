import Compose
import ComposeTestSupport
import Foundation
import Testing

/// A created component destroyed on one thread while another pushes its route: one of the two
/// wins, and the tree says so. Either the route is on the stack and the component is created and
/// shown, or neither. (Before the destroy and the push decided under one lock, the check of one
/// and the act of the other interleaved: 1 to 4 rounds in 1,500 ended with the route on the stack
/// and the component destroyed.)
@Suite struct DestroyRacingPushTests {
    struct Sheet: Component {
        let tap = SignalEmitter()
        var observers: Void { None }
    }

    struct Home: Component {
        var observers: Void { None }
    }

    struct Screen: RouterComponent {
        let home = Home()
        let sheet = DynamicComponent<Sheet>()
        let router = Router(start: \Self.home)
        var observers: Void { None }
    }

    struct Dashboard: RouterComponent {
        let home = Home()
        let panels = InstanceComponent<Sheet>()
        let router = Router(start: \Self.home)
        var observers: Void { None }
    }

    @Test(.timeLimit(.minutes(5)))
    func aDynamicComponentDestroyedWhileItsRouteIsPushed() async {
        let host = ComponentHost(Screen())
        let root = host.root
        let barrier = Barrier(parties: 2)
        let inconsistent = LockedBox<[String]>([])
        await onThreads(2) { thread in
            Diagnostics.withHandler({ _ in }) {  // the loser's refusal is reported
                for round in 0..<1_500 {
                    if thread == 0 { root.sheet.create(Sheet()) }
                    barrier.arriveAndWait()
                    if thread == 0 { root.sheet.destroy() } else { root.router.push(\Screen.sheet) }
                    barrier.arriveAndWait()
                    guard thread == 0 else { continue }
                    let onStack = root.router.routes.count == 2
                    let created = root.sheet.isCreated
                    let visible = host.visibleIDs
                    let pushedWon = onStack && created && visible == ["Screen", "Screen/sheet"]
                    let destroyWon = !onStack && !created && visible == ["Screen", "Screen/home"]
                    if !pushedWon && !destroyWon {
                        inconsistent.mutate { $0.append("round \(round): on stack \(onStack), created \(created), \(visible)") }
                    }
                    if onStack { root.router.pop() }
                    if root.sheet.isCreated { root.sheet.destroy() }
                }
            }
        }
        #expect(inconsistent.value == [])
        host.unmount()
    }

    @Test(.timeLimit(.minutes(5)))
    func anInstanceDestroyedWhileItsRouteIsPushed() async {
        let host = ComponentHost(Dashboard())
        let root = host.root
        let barrier = Barrier(parties: 2)
        let inconsistent = LockedBox<[String]>([])
        let current = LockedBox(UUID())
        await onThreads(2) { thread in
            Diagnostics.withHandler({ _ in }) {
                for round in 0..<1_500 {
                    if thread == 0 { current.mutate { $0 = root.panels.create(Sheet()) } }
                    barrier.arriveAndWait()
                    let id = current.value
                    if thread == 0 { root.panels.destroy(id) } else { root.router.push(\Dashboard.panels, instance: id) }
                    barrier.arriveAndWait()
                    guard thread == 0 else { continue }
                    let onStack = root.router.routes.count == 2
                    let created = root.panels.ids.contains(id)
                    let pushedWon = onStack && created && host.visibleIDs.count == 2
                    let destroyWon = !onStack && !created && host.visibleIDs == ["Dashboard", "Dashboard/home"]
                    if !pushedWon && !destroyWon {
                        inconsistent.mutate {
                            $0.append("round \(round): on stack \(onStack), created \(created), \(host.visibleIDs)")
                        }
                    }
                    if onStack { root.router.pop() }
                    if root.panels.ids.contains(id) { root.panels.destroy(id) }
                }
            }
        }
        #expect(inconsistent.value == [])
        host.unmount()
    }
}
