import ComposeEmitters
import ComposeRouting
import ComposeTestSupport
import Foundation
import Observation
import Testing

struct LastChangePage: Routable {
    var title = ""
}

struct LastChangeOwner: Routable {
    let home = LastChangePage(title: "home")
    let detail = LastChangePage(title: "detail")
    let settings = LastChangePage(title: "settings")
}

@Suite struct RouterLastChangeTests {
    /// Router.lastChange: "Set before the change's observers hear of it, so an Observation update or
    /// a handler of didPush reads the change it was told of (or a later one, if another thread
    /// navigated meanwhile)". Every announced change gets an ordinal (the first handler of each
    /// emitter numbers it, in announcement order); each later handler checks that lastChange is the
    /// change it was told of or one announced after it, never an earlier one.
    @Test func aHandlerNeverReadsAnOlderChangeThanItWasToldOf() async {
        for _ in 0..<5 {
            let router = Router(start: \LastChangeOwner.home)
            let log = LockedBox<[RouteChange]>([])
            let older = LockedBox<[String]>([])
            let mainOlder = LockedBox<[String]>([])
            let told = LockedBox<Int>(0)
            func watch(_ emitter: ValueEmitter<RouteChange>) -> [EmitterSubscription] {
                let first = emitter += { change in log.mutate { $0.append(change) } }
                let second =
                    emitter += { change in
                        let read = router.lastChange
                        // Announcements are serial: nothing later can have been announced yet.
                        if read != change {
                            older.mutate { $0.append("told \(change), read \(String(describing: read))") }
                        }
                        told.mutate { $0 += 1 }
                    }
                return [first, second]
            }
            let subscriptions = watch(router.didPush) + watch(router.didPop) + watch(router.didReplace)
            let onMain = await MainActor.run {
                router.didPush += { @MainActor change in
                    if router.lastChange == nil { mainOlder.mutate { $0.append("nil for \(change)") } }
                }
            }
            await onThreads(3) { index in
                Diagnostics.withHandler({ _ in }) {
                    for step in 0..<300 {
                        switch (index + step) % 4 {
                        case 0: router.push(\LastChangeOwner.detail, animated: step % 2 == 0)
                        case 1: router.pop(animated: step % 3 == 0)
                        case 2: router.replace(\LastChangeOwner.settings)
                        default: router.popToRoot()
                        }
                    }
                }
            }
            #expect(older.value.isEmpty, "\(older.value.prefix(3))")
            #expect(mainOlder.value.isEmpty)
            for subscription in subscriptions { subscription.cancel() }
            onMain.cancel()
        }
    }
}
