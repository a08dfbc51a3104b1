import ComposeEmitters
import ComposeStore
import Dispatch

/// Code written in a nonisolated module, for the main-actor test target: closures written here are
/// nonisolated, as a library's or a server's are, while those the main-actor target writes are
/// main-actor isolated.
public enum NonisolatedCode {
    /// Whether the caller runs on the main actor, asked without trapping: the main actor's
    /// executor is the main dispatch queue (`swift test` drains it from a worker thread, so
    /// `Thread.isMainThread` does not tell).
    public static var isOnMainActor: Bool {
        _ = mainQueueMarked
        return DispatchQueue.getSpecific(key: mainQueueKey) != nil
    }

    private static let mainQueueKey = DispatchSpecificKey<Bool>()
    private static let mainQueueMarked: Void = DispatchQueue.main.setSpecific(key: mainQueueKey, value: true)

    /// Records every value `emitter` delivers, on the delivering thread.
    public static func record<Value>(_ emitter: ValueEmitter<Value>, into recorder: Recorder<Value>) {
        emitter += { recorder.record($0) }
    }

    /// Subscribes `body` with a handler written here (nonisolated).
    public static func subscribe<Value>(_ emitter: ValueEmitter<Value>, _ body: @escaping @Sendable () -> Void) {
        emitter += { _ in body() }
    }

    /// Records, for each commit of `store`, whether its observers heard it on the main actor.
    public static func recordCommitIsolation<State>(_ store: Store<State>, into recorder: Recorder<Bool>) {
        store.didChange += { _ in recorder.record(isOnMainActor) }
    }

    /// Queues a mutation from nonisolated code.
    public static func setState<State>(_ store: Store<State>, _ mutation: @escaping @Sendable (inout State) -> Void) {
        store.setState(mutation)
    }
}
