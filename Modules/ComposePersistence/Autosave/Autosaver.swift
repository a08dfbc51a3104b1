import ComposeEmitters
import ComposeMachinery
import Dispatch

/// What ``Persistence`` asks of an autosaver.
protocol Autosaving: AnyObject, Sendable {
    /// The store changed.
    func changed()
    /// Saves what is pending now and waits for every save queued so far.
    func flush() async throws(PersistenceError)
    /// ``flush()`` for a thread that must not return before the save (the process is exiting).
    func flushAndWait(timeout: Duration)
    /// Cancels every pending save, without waiting: a save already queued still runs.
    func dropPending()
    /// Cancels every pending save, then runs `delete` after every save already queued, and
    /// returns when it has run.
    func purge(_ delete: @escaping @Sendable () throws(PersistenceError) -> Void) throws(PersistenceError)
    /// The identity of the storage saved to, as the file system is now (see
    /// ``AnyPersistentStorage/identity``).
    var identity: AnyHashable? { get }
    /// The store ended: saves what is pending now (and again if `saveAgain`: a save missed the
    /// store's last state), then stops. The save is pending (``PendingSaves``) before this
    /// returns.
    func storeEnded(saveAgain: Bool)
}

/// Runs ``AutosaveStateMachine`` on a store's changes, with an alarm on an injected clock, and
/// performs the saves in the background, one at a time, in order.
///
/// Two relays: `decisions` runs the state machine on the thread that changed the store (a few
/// instructions), and `saves` writes on a background dispatch queue, so no store write waits
/// for the disk. Each save is registered in ``PendingSaves`` from when it is decided until it has
/// run, so that restores of the same storage wait for it.
final class Autosaver<C: Clock>: Autosaving, @unchecked Sendable where C.Duration == Duration {
    enum Event: Sendable {
        case changed
        case windowClosed(C.Instant)
        /// Saves what is pending, then calls back with the error of the saves since the last flush.
        case flush(@Sendable (PersistenceError?) -> Void)
        /// Drops what is pending, then runs the work on the queue, after the saves queued so far.
        case purge(@Sendable () -> Void)
        /// The store ended; see ``Autosaving/storeEnded(saveAgain:)``. Carries the ticket of
        /// the last save, registered when the store ended, and the saver itself: the relay's
        /// handler holds it weakly, and the last save must not be dropped with it.
        case storeEnded(saveAgain: Bool, ticket: PendingSaves.Ticket?, saver: Autosaver)
    }

    private let decisions = Relay<Event>()
    private let saves = Relay<@Sendable () -> Void>(
        running: .scheduled { work in
            DispatchQueue.global(qos: .utility).async(execute: work)
        })
    private let alarm: Alarm<C>
    /// The identity of the storage saved to (see ``PendingSaves``), asked each time a save is
    /// decided: a directory's spelling can come to name another directory (a link made later).
    private let currentIdentity: @Sendable () -> AnyHashable?
    private let save: @Sendable () throws(PersistenceError) -> Void
    private let errors: @Sendable (PersistenceError) -> Void
    private let machine: HandlerState<AutosaveStateMachine<C.Instant>>
    /// The first error of the saves since the last flush. Touched only by `saves`' handler.
    private var failure: PersistenceError?

    init(
        window: Duration,
        clock: C,
        identity: @escaping @Sendable () -> AnyHashable?,
        save: @escaping @Sendable () throws(PersistenceError) -> Void,
        errors: @escaping @Sendable (PersistenceError) -> Void
    ) {
        self.alarm = Alarm(clock: clock)
        self.currentIdentity = identity
        self.save = save
        self.errors = errors
        self.machine = HandlerState(AutosaveStateMachine(window: window))
        decisions.start { [weak self] event in self?.handle(event) }
        saves.start { work in work() }
        AutosaveRegistry.add(self)
    }

    deinit {
        alarm.cancel()
        decisions.stop()
    }

    var identity: AnyHashable? {
        currentIdentity()
    }

    func changed() {
        decisions.send(.changed)
    }

    func flush() async throws(PersistenceError) {
        let failure: PersistenceError? = await withCheckedContinuation { continuation in
            decisions.send(.flush { continuation.resume(returning: $0) })
        }
        if let failure { throw failure }
    }

    func flushAndWait(timeout: Duration) {
        let done = DispatchSemaphore(value: 0)
        decisions.send(.flush { _ in done.signal() })
        let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        _ = done.wait(timeout: .now() + seconds)
    }

    func purge(_ delete: @escaping @Sendable () throws(PersistenceError) -> Void) throws(PersistenceError) {
        let result = LockedState<Result<Void, PersistenceError>?>(nil)
        let run: @Sendable () -> Void = {
            let outcome: Result<Void, PersistenceError>
            do throws(PersistenceError) {
                try delete()
                outcome = .success(())
            } catch {
                outcome = .failure(error)
            }
            result.withLock { $0 = outcome }
        }
        if saves.isHandlingOnCurrentThread {
            // Called from a save's error handler: nothing queued can run before us.
            decisions.send(.purge({}))
            run()
        } else {
            let done = DispatchSemaphore(value: 0)
            decisions.send(
                .purge {
                    run()
                    done.signal()
                })
            done.wait()
        }
        try result.withLock { $0 }?.get()
    }

    func dropPending() {
        decisions.send(.purge({}))
    }

    func storeEnded(saveAgain: Bool) {
        // Registered here rather than by the handler, which another thread may be running: the
        // store's release must not return before its last save is pending.
        let ticket = PendingSaves.saveDecided(for: identity)
        decisions.send(.storeEnded(saveAgain: saveAgain, ticket: ticket, saver: self))
    }

    /// Runs on the relay: one event at a time.
    private func handle(_ event: Event) {
        let action: AutosaveStateMachine<C.Instant>.Action
        switch event {
        case .purge(let work):
            machine.value.cancelPending()
            alarm.cancelPending()
            saves.send(work)
            return
        case .storeEnded(let saveAgain, let ticket, _):
            // No change can come any more: save what is pending now rather than at the end of
            // the window, and stop the alarm, which would only keep this saver alive.
            alarm.cancel()
            if machine.value.flush() == .save || saveAgain {
                enqueueSave(ticket)
            } else {
                PendingSaves.saveDone(ticket)  // the saves queued before have tickets of their own
            }
            return
        case .changed:
            action = machine.value.changed(at: alarm.clock.now)
        case .windowClosed(let end):
            action = machine.value.windowClosed(end)
        case .flush(let done):
            if case .save = machine.value.flush() { enqueueSave() }
            saves.send {
                let failure = self.failure
                self.failure = nil
                done(failure)
            }
            return
        }
        switch action {
        case .none:
            break
        case .save:
            enqueueSave()
        case .saveAndWait(let end):
            enqueueSave()
            alarm.schedule(at: end) { [weak self] in self?.decisions.send(.windowClosed(end)) }
        }
    }

    /// Queues a save, pending under `ticket` (or a ticket of its own) until it has run. The
    /// ticket is done before the error is reported, so a restore waiting for it never waits for
    /// an error handler; a restore made by the handler does not wait (see ``PendingSaves``).
    private func enqueueSave(_ ticket: PendingSaves.Ticket? = nil) {
        let ticket = ticket ?? PendingSaves.saveDecided(for: identity)
        saves.send {
            var failure: PersistenceError?
            do throws(PersistenceError) {
                try self.save()
            } catch {
                failure = error
            }
            PendingSaves.saveDone(ticket)
            guard let failure else { return }
            if self.failure == nil { self.failure = failure }
            PendingSaves.reporting { self.errors(failure) }
        }
    }
}

/// The live autosavers, flushed when the process exits normally, so a change made just before
/// `exit` (or the end of `main`) is not lost; and by world (see `ComposeWorld`), so that
/// ComposeTesting's sandbox can wait for its own before it removes its directory.
package enum AutosaveRegistry {
    /// A live autosaver, held weakly, and the world it was made in.
    private struct Entry {
        let saver: WeakBox<AnyObject>
        let world: ObjectIdentifier

        var live: (any Autosaving)? {
            saver.object as? any Autosaving
        }
    }

    private static let savers = LockedState<[ObjectIdentifier: Entry]>([:])

    private static let exitHandler: Void = {
        atexit { AutosaveRegistry.flushAll() }
    }()

    static func add(_ saver: any Autosaving) {
        _ = exitHandler
        let world = ObjectIdentifier(ComposeWorld.current)
        savers.withLock { savers in
            savers = savers.filter { $0.value.saver.object != nil }
            savers[ObjectIdentifier(saver)] = Entry(saver: WeakBox(saver), world: world)
        }
    }

    /// The live autosavers saving to the storage whose identity is `identity`, but `excluded`.
    static func live(savingTo identity: AnyHashable, excluding excluded: (any Autosaving)?) -> [any Autosaving] {
        let live = savers.withLock { $0.values.compactMap(\.live) }
        return live.filter { $0 !== excluded && $0.identity == identity }
    }

    /// Flushes every live autosaver, waiting up to five seconds for each.
    static func flushAll() {
        let live = savers.withLock { $0.values.compactMap(\.live) }
        for saver in live { saver.flushAndWait(timeout: .seconds(5)) }
    }

    /// Flushes the live autosavers made in `world` (their stores may be gone: a save pending when
    /// a store ends still runs), waiting up to five seconds for each.
    package static func flushAll(in world: ComposeWorld) {
        let identity = ObjectIdentifier(world)
        let live = savers.withLock { $0.values.filter { $0.world == identity }.compactMap(\.live) }
        for saver in live { saver.flushAndWait(timeout: .seconds(5)) }
    }
}
