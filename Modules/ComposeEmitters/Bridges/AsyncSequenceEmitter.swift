extension Emitters {
    /// Sends the elements of an async sequence as `Result` values. Returned by
    /// `AsyncSequence.emitter()`.
    ///
    /// Iteration starts with the first subscription, in a task of its own. Each element is sent
    /// as `.success`; an error thrown by the sequence is sent as `.failure` and ends the
    /// iteration. Iteration stops for good when the sequence ends, when ``cancel()`` is called, or
    /// when the last subscription is cancelled (for instance because its ``ObservationScope``
    /// ended); the task is cancelled, and a sequence that honours cancellation stops producing.
    /// An error thrown because of that cancellation is not sent.
    public final class AsyncSequenceEmitter<Base: AsyncSequence & Sendable>: Emitter
    where Base.Element: Sendable {
        public typealias Value = Result<Base.Element, Base.Failure>

        private let source: TaskSource<Value>

        init(_ base: Base) {
            source = TaskSource(replaysLast: false) { send in
                do throws(Base.Failure) {
                    for try await element in base {
                        send(.success(element))
                    }
                } catch {
                    guard !Task.isCancelled else { return }
                    send(.failure(error))
                }
            }
        }

        public func register(_ handler: @escaping @Sendable (Value) -> Void) -> EmitterSubscription {
            source.register(handler)
        }

        /// Stops the iteration; nothing is sent afterwards.
        public func cancel() {
            source.stop()
        }
    }

    /// Runs an async operation once and sends its result. The bridge from Combine's `Future`.
    ///
    /// ```swift
    /// Emitters.Future { try await fetchNetworkData() } += { result in
    ///     guard let data = try? result.get() else { return print("Error when fetching data!") }
    ///     print("Fetched data: ", data)
    /// }
    /// ```
    ///
    /// The operation starts with the first subscription. Its result is sent once; a subscriber
    /// that arrives later receives the result at once. If every subscription is cancelled before
    /// the result arrives, or ``cancel()`` is called, the operation's task is cancelled and an
    /// error caused by that cancellation is not sent.
    public final class Future<Success: Sendable, Failure: Error>: Emitter {
        public typealias Value = Result<Success, Failure>

        private let source: TaskSource<Value>

        /// - Parameter operation: The work to run, once.
        public init(_ operation: @escaping @Sendable () async throws(Failure) -> Success) {
            source = TaskSource(replaysLast: true) { send in
                let result: Result<Success, Failure>
                do throws(Failure) {
                    result = .success(try await operation())
                } catch {
                    guard !Task.isCancelled else { return }
                    result = .failure(error)
                }
                send(result)
            }
        }

        public func register(_ handler: @escaping @Sendable (Value) -> Void) -> EmitterSubscription {
            source.register(handler)
        }

        /// Cancels the operation; nothing is sent afterwards.
        public func cancel() {
            source.stop()
        }
    }
}

extension AsyncSequence where Self: Sendable, Element: Sendable {
    /// An emitter of this sequence's elements as `Result` values.
    ///
    /// ```swift
    /// messages.emitter() += { result in
    ///     switch result {
    ///     case .success(let message): show(message)
    ///     case .failure(let error): report(error)
    ///     }
    /// }
    /// ```
    ///
    /// See ``Emitters/AsyncSequenceEmitter`` for when iteration starts and stops.
    public func emitter() -> Emitters.AsyncSequenceEmitter<Self> {
        Emitters.AsyncSequenceEmitter(self)
    }
}
