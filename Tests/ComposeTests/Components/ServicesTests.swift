import Compose
import ComposeTestSupport
import Dispatch
import Foundation
import Testing

/// The README's `UserService`, with a counter to see creation happen once.
struct UserService: Service {
    static let Name = "storyline.user"
    static let creations = Recorder<Int>()

    let name: String
    let session = SignalEmitter()

    init() {
        Self.creations.record(1)
        name = "real"
    }

    init(name: String) {
        self.name = name
    }

    func login() {
        session.send()
    }
}

extension Services {
    var user: UserService {
        get { self[UserService.self] }
        set { self[UserService.self] = newValue }
    }
}

struct SlowService: Service {
    static let creations = Recorder<Int>()
    init() {
        Self.creations.record(1)
        for _ in 0..<10_000 { _ = Int.random(in: 0...1) }  // take a moment: others must wait
    }
}

struct NeedsUser: Service {
    let userName: String
    init() { userName = Services.current.user.name }  // one service's init reads another
}

struct Cyclic: Service {
    init() { _ = Services.current[Cyclic.self] }
}

/// A service whose `init` waits for another thread that reads another service.
struct WaitsForAnotherThread: Service {
    init() {
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            _ = Services.current[Independent.self]
            done.signal()
        }
        thread.start()
        done.wait()
    }
}

struct Independent: Service, Equatable {
    init() {}
}

/// A cycle across two threads: `CycleA`'s init reads `CycleB` once another thread is creating
/// it, and `CycleB`'s init reads `CycleA`.
enum CrossThreadCycle {
    static let aStarted = DispatchSemaphore(value: 0)
    static let bStarted = DispatchSemaphore(value: 0)
}

struct CycleA: Service {
    init() {
        CrossThreadCycle.aStarted.signal()
        CrossThreadCycle.bStarted.wait()
        _ = Services.current[CycleB.self]
    }
}

struct CycleB: Service {
    init() {
        CrossThreadCycle.bStarted.signal()
        _ = Services.current[CycleA.self]
    }
}

@Suite struct ServicesTests {
    struct AuthComponent: Component {
        let login = SignalEmitter()
        var observers: Void {
            login += { services.user.login() }
        }
    }

    @Test func componentsReachServicesAndOverridesStayInTheirScope() {
        let replacement = UserService(name: "replacement")
        let sessions = Recorder<String>()
        replacement.session += { sessions.record("replacement") }
        Services.withOverrides({ $0.user = replacement }) {
            let host = ComponentHost(AuthComponent())
            host.root.login.send()
            #expect(Services.current.user.name == "replacement")
            host.unmount()
        }
        #expect(sessions.values == ["replacement"])
    }

    @Test func aServiceIsCreatedOnceEvenFromManyThreads() {
        Services.withOverrides({ _ in }) {
            let before = SlowService.creations.count
            let scope = Services.current
            DispatchQueue.concurrentPerform(iterations: 8) { _ in
                _ = scope[SlowService.self]
            }
            _ = Services.current[SlowService.self]
            #expect(SlowService.creations.count == before + 1)
        }
    }

    @Test func servicesCreatedInAScopeStayInIt() {
        let outside = Services.withOverrides({ _ in }) { Services.current[NeedsUser.self].userName }
        let inside = Services.withOverrides({ $0.user = UserService(name: "mock") }) {
            Services.current[NeedsUser.self].userName
        }
        #expect(outside == "real")
        #expect(inside == "mock")  // not the one the other scope created
    }

    @Test func aServiceReadingItselfIsAClearError() async {
        await #expect(processExitsWith: .failure) {
            _ = Services.current[Cyclic.self]
        }
    }

    /// A service's init may wait for another thread that reads another service. Before the fix
    /// every init ran under one process-wide lock, and this deadlocked.
    @Test(.timeLimit(.minutes(5)))
    func creatingOneServiceNeverBlocksCreatingAnother() {
        _ = Services.current[WaitsForAnotherThread.self]
        #expect(Services.current[Independent.self] == Independent())
    }

    /// Two threads, each creating a service that reads the other's: a cycle, reported by name
    /// rather than a deadlock.
    @Test func aCycleAcrossThreadsIsAClearError() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let other = Thread {
                CrossThreadCycle.aStarted.wait()
                _ = Services.current[CycleB.self]
            }
            other.start()
            _ = Services.current[CycleA.self]
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("CycleA -> CycleB -> CycleA") || message.contains("CycleB -> CycleA -> CycleB"), "\(message)")
    }
}
