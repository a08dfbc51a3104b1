import ComposeTestSupport
import Dispatch
import Foundation
import Testing

@testable import Compose

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

/// A service whose `init` waits until its test opens ``gate``.
struct GatedService: Service {
    static let creations = Recorder<Int>()
    static let gate = LockedBox(false)
    let identity = UUID()

    init() {
        Self.creations.record(1)
        while !Self.gate.value { usleep(100) }
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

    /// Reads that overlap a creation, made to: one thread's read creates the service, whose `init`
    /// waits until two more threads' reads wait for it (or, were creation not once, have started
    /// creations of their own). All three get the one service, created once.
    @Test(.timeLimit(.minutes(5)))
    func aServiceIsCreatedOnceEvenFromManyThreads() async {
        let scope = Services.withOverrides({ _ in }) { Services.current }
        let identities = Recorder<UUID>()
        await onThreads(1) { _ in
            let group = DispatchGroup()
            for reader in 0..<3 {
                if reader == 1 {
                    while GatedService.creations.count == 0 { usleep(100) }  // the first creation began
                }
                group.enter()
                startThread {
                    identities.record(scope[GatedService.self].identity)
                    group.leave()
                }
            }
            let deadline = ContinuousClock.now + testWaitLimit
            while ServiceCreation.waitingThreadCount(for: GatedService.self) < 2, GatedService.creations.count < 2,
                ContinuousClock.now < deadline
            {
                usleep(100)
            }
            GatedService.gate.mutate { $0 = true }
            group.wait()
        }
        #expect(GatedService.creations.count == 1)
        #expect(identities.count == 3 && Set(identities.values).count == 1)
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
