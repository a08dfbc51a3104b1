import ComposeEmitters
import ComposeMachinery
import ComposeRouting
import ComposeStore
import Foundation

/// Records what a running component tree receives from outside, so that ComposeTesting's
/// `SessionReplay` can play it again as a test.
///
/// ```swift
/// let host = ComponentHost(NotesApp())
/// let recorder = SessionRecorder(host)
/// // ... the user taps, types, goes back ...
/// try recorder.stop().write(to: reportURL)   // a bug report that is a test
/// ```
///
/// ## What it records
/// The inputs of the tree, in the order they came, each with the time on the host's clock
/// (`services.clock` where the host was made) since the recording started:
/// - a send on an emitter stored in a component of the tree, made outside any handler (a tap,
///   typing): sends made by handlers, by tasks handlers started, and by timers are their
///   consequences, and replay by themselves;
/// - a write through a store's binding (`$state.binding.email`, what a text field edits), with the
///   whole state it leads to;
/// - a router asked to navigate from outside any handler (a back gesture setting a shorter
///   `navigationPath`, a `pop()` from a view);
/// - a deep link or routing path opened on the host;
/// - a dynamic component dismissed from outside (a sheet swiped down);
/// - a component made visible or hidden by a view layer (manual visibility);
/// - the results services return through ``result(named:_:)-(_,()->Value)``.
///
/// After each input, a checkpoint of every store's state (encoded with `Codable`; a state that
/// is not `Encodable` by its description) and every router's stack, taken just before the next
/// input (or when the recording stops), so it holds the input's effects and what time brought.
///
/// An input is recognized by where it is made: outside the delivery of any logged send (see
/// `EventLog.Event.isConsequence`). Code that runs outside any delivery and sends into the tree
/// (a `DispatchQueue` callback, a task started at launch) is recorded as an input.
///
/// ## Privacy and size
/// Values of redacted emitters (`ValueEmitter(redacted: true)`) are not written, and
/// ``Redacted`` fields of states and results are written as `"<redacted>"`. The file is kept
/// under `maximumBytes`: when it would grow past it, the oldest steps are dropped (down to three
/// quarters of it) and a marker says how many, with the whole state after the last one dropped.
/// The latest completed step is always kept: the file is over its limit only when it holds the
/// header, the marker and that step, and nothing more.
///
/// ## Cost
/// While no recorder (and no other observer of the `EventLog`) exists, nothing: the emitters
/// check one relaxed atomic load per send, as they always do. While one records, every send in
/// the process's world is logged, and each input reads and encodes the tree's state; see the
/// Performance article for the measured cost.
///
/// ## Threads
/// Make the recorder where the host was made (the same `ComposeSandbox` in a test): it observes
/// that world's event log, and receives its events one at a time, in order. An input's event
/// reaches it on the thread that made the input, or right after, from a thread of the same world
/// that was handing other events over. Inputs from one thread (the main actor, as a UI makes them)
/// are checkpointed exactly before the next. Steps are taken one at a time (their time read, the
/// tree checkpointed), so their times never go back. `stop()` may be called from any thread: it
/// records what has reached the recorder when it begins, an input being recorded at that moment
/// included. A state's `encode(to:)` runs while a step is taken and must not use the recorder.
public final class SessionRecorder: Sendable {
    /// The default ``maximumBytes``: 1 MiB.
    public static let defaultMaximumBytes = 1 << 20

    /// The size the recording's file is kept under.
    public let maximumBytes: Int
    private let tree: SessionTree
    private let start: ComposeClock.Instant
    private let buffer: LockedState<SessionBuffer>
    /// Held while a step is taken: its time read, the tree's checkpoint, the buffer's transition.
    /// Inputs, `recording` and `stop()` take it in turn, so steps are recorded in the order of
    /// their times, and `stop()` waits for an input whose handling began before it. Service
    /// results take only `buffer`'s lock. It counts the steps taken (a `Void` state would share
    /// its zero-size storage's address with the lock, which ThreadSanitizer reports as a race).
    private let turn = LockedState<Int>(0)
    private let subscription = LockedState<EmitterSubscription?>(nil)
    private let taps: SessionTaps

    /// Starts recording `host`'s tree: step 0 is the tree as it is now.
    ///
    /// - Parameters:
    ///   - host: The mounted tree.
    ///   - maximumBytes: The size the file is kept under (at least 4096 bytes).
    public init<Root: Component>(_ host: ComponentHost<Root>, maximumBytes: Int = defaultMaximumBytes) {
        precondition(maximumBytes >= 4096, "SessionRecorder needs maximumBytes of at least 4096, not \(maximumBytes)")
        self.maximumBytes = maximumBytes
        tree = SessionTree(host)
        start = tree.clock.now
        buffer = LockedState(SessionBuffer(root: "\(Root.self)", maximumBytes: maximumBytes, start: tree.checkpoint()))
        taps = SessionTaps.current
        taps.add(self)
        let observer = EventLog.observe(only: Self.inputKinds) { [weak self] event in self?.handle(event) }
        subscription.withLock { $0 = observer }
    }

    deinit {
        subscription.withLock { $0 }?.cancel()
        taps.remove(self)
    }

    /// Whether it is still recording.
    public var isRecording: Bool {
        !buffer.withLock(\.isStopped)
    }

    /// The recording so far: as it was stopped, or as if it stopped now.
    public var recording: SessionRecording {
        turn.withLock { turns in
            turns += 1
            let time = elapsed
            // Not a step: numbers no instance (a replay does not look at the tree here).
            let state = tree.checkpoint(numbering: false)
            return buffer.withLock { $0.recording(endingAt: time, state: state) }
        }
    }

    /// Stops recording: the last step's checkpoint is the tree now. Idempotent.
    ///
    /// - Returns: The recording.
    @discardableResult
    public func stop() -> SessionRecording {
        subscription.withLock { subscription in
            defer { subscription = nil }
            return subscription
        }?.cancel()
        taps.remove(self)
        // After an input whose handling already began: its step is recorded first.
        return turn.withLock { turns in
            turns += 1
            let time = elapsed
            let state = tree.checkpoint()
            return buffer.withLock { buffer in
                buffer.stop(at: time, state: state)
                return buffer.recording(endingAt: time, state: state)
            }
        }
    }

    /// The kinds of event that can be inputs: the log records no other for a recorder (a store's
    /// mutations, described by reflection, least of all).
    static let inputKinds: Set<EventLog.Event.Kind> = [.send, .binding, .navigation, .deepLink, .dismissal, .visibility]

    private var elapsed: Duration {
        start.duration(to: tree.clock.now)
    }

    func record(_ result: SessionRecording.ServiceResult) {
        buffer.withLock { $0.record(result) }
    }

    // MARK: Events

    private func handle(_ event: EventLog.Event) {
        guard !event.isConsequence, let subject = event.subject else { return }
        turn.withLock { turns in
            guard let input = input(of: event, subject: subject) else { return }
            turns += 1
            take(input, at: elapsed, stateBefore: tree.checkpoint())
        }
    }

    /// Records `input`; called in turn (see `turn`). Encoding the state ran the app's code before
    /// `buffer`'s lock is taken.
    private func take(_ input: SessionRecording.Input, at time: Duration, stateBefore state: SessionRecording.Checkpoint) {
        var input = input
        // A binding write that changes nothing a checkpoint shows wrote only a private field.
        if case .binding(var binding) = input, state.stores["\(binding.component).\(binding.store)"] == binding.state,
            binding.state.holdsRedactedValues
        {
            binding.redacted = true
            input = .binding(binding)
        }
        buffer.withLock { $0.begin(input, at: time, stateBefore: state) }
    }

    /// The input `event` is, if it is one of the tree's.
    private func input(of event: EventLog.Event, subject: ObjectIdentifier) -> SessionRecording.Input? {
        switch event.kind {
        case .send:
            guard let (path, name, emitter) = tree.emitter(subject) else { return nil }
            var send = SessionRecording.Input.Send(component: path, emitter: name, label: emitter.label, value: nil)
            if emitter.isSignal {
                return .send(send)
            }
            if event.payload is EventLog.RedactedValue {
                send.redacted = true
            } else if let encodable = event.payload as? any Encodable, let value = try? SessionValue(encoding: encodable) {
                send.value = value
            } else {
                send.valueDescription = String(describing: event.payload)
            }
            return .send(send)
        case .binding:
            guard let (path, name, _) = tree.store(subject), let write = event.payload as? BindingWrite else { return nil }
            return .binding(.init(component: path, store: name, keyPath: write.keyPath, state: .init(of: write.state)))
        case .navigation:
            guard let (path, name, router) = tree.router(subject), let request = event.payload as? NavigationRequest else {
                return nil
            }
            let routes = request.target.map { [$0] } ?? request.routes
            return .navigation(
                .init(component: path, router: name, action: request.kind, routes: tree.stack(of: routes, on: router)))
        case .deepLink:
            guard subject == ObjectIdentifier(tree.core), let path = event.payload as? String else { return nil }
            return .link(path: path)
        case .dismissal:
            return tree.dynamic(subject).map { .dismissal(component: $0.path, field: $0.name) }
        case .visibility:
            guard let visible = event.payload as? Bool else { return nil }
            return tree.node(subject).map { .visibility(component: $0, visible: visible) }
        default:
            return nil
        }
    }
}
