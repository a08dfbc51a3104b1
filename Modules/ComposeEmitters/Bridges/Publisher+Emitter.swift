#if canImport(Combine)
import Combine
import ComposeMachinery

extension Emitters {
    /// Sends a Combine publisher's output as `Result` values. Returned by `Publisher.emitter()`.
    ///
    /// The publisher is subscribed at once, as in Compose's original API. Each element is sent as
    /// `.success`; a failure completion is sent as `.failure`. A subscriber that arrives after a
    /// value was sent receives the latest value first, so a `Future` that completes before
    /// anybody subscribed is not lost. ``cancel()`` cancels the Combine subscription.
    ///
    /// This bridge only uses `sink` and `AnyCancellable`, the API OpenCombine mirrors, and is
    /// compile-checked against OpenCombine; it cannot be run on Linux.
    public final class PublisherEmitter<Output: Sendable, Failure: Error>: Emitter {
        public typealias Value = Result<Output, Failure>

        private let core = EmitterCore<Value>(label: nil, remembersValues: true)
        private let cancellable = LockedState<AnyCancellable?>(nil)

        init<Upstream: Publisher>(_ publisher: Upstream) where Upstream.Output == Output, Upstream.Failure == Failure {
            let core = self.core
            let subscription = publisher.sink(
                receiveCompletion: { completion in
                    if case .failure(let error) = completion { core.send(.failure(error)) }
                },
                receiveValue: { core.send(.success($0)) }
            )
            cancellable.withLock { $0 = subscription }
        }

        public func register(_ handler: @escaping @Sendable (Value) -> Void) -> EmitterSubscription {
            core.register(handler, replayCurrent: true)
        }

        /// Cancels the Combine subscription; nothing is sent afterwards.
        public func cancel() {
            let subscription = cancellable.withLock { state in
                defer { state = nil }
                return state
            }
            subscription?.cancel()
        }
    }
}

extension Publisher where Output: Sendable {
    /// An emitter of this publisher's output as `Result` values.
    ///
    /// ```swift
    /// fetchData.emitter() += { result in
    ///     guard let data = try? result.get() else { return print("Error when fetching data!") }
    ///     print("Fetched data: ", data)
    /// }
    /// ```
    public func emitter() -> Emitters.PublisherEmitter<Output, Failure> {
        Emitters.PublisherEmitter(self)
    }
}
#endif
