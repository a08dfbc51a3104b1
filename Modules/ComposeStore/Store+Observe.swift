import ComposeEmitters
import ComposeMachinery

extension Store {
    /// Calls `handler` each time one of the values at `keyPath` changes.
    ///
    /// ```swift
    /// $state.observe(\.email) { email in print("email:", email) }
    /// $state.observe(\.firstName, \.lastName) { first, last in print(first, last) }
    /// ```
    ///
    /// The handler is called only when one of the values differs (`!=`) from what it last heard,
    /// with all of them. A change elsewhere in the state costs it nothing: the store indexes
    /// observers by where their values live in the state's storage, and a write looks only at the
    /// observers of what it changed. Key paths without a storage offset (computed properties,
    /// optional chaining, class references) are checked on every change instead.
    ///
    /// The handler is called after the write, with the values current at that moment: if several
    /// writes land before it is called, it hears the latest values once. Handlers are called in
    /// subscription order, never concurrently, never under a lock; see ``Store`` for the threads.
    ///
    /// The subscription joins the current ``/ComposeEmitters/ObservationScope``.
    ///
    /// - Parameters:
    ///   - keyPath: One or more key paths of the state.
    ///   - handler: Called with the values at `keyPath`.
    /// - Returns: The subscription; cancelling it stops the handler.
    /// - Complexity: Registering is O(*w*) in the words the values occupy; a write that does not
    ///   touch them does not look at this observer.
    @inlinable
    @discardableResult
    public func observe<Value: Equatable & Sendable>(
        _ keyPath: any KeyPath<State, Value> & Sendable,
        @_inheritActorContext handler: @escaping @isolated(any) @Sendable (Value) -> Void
    ) -> EmitterSubscription {
        // One key path, the common case, without parameter packs: code iterating a pack is not
        // specialized per element, and this path runs for every change an observer hears.
        // Benchmark: "store 1,000 fields K=..., keypath write" (`Store/1,000 fields`).
        let storage = self.storage
        let subscriber = IsolatedHandler.subscriber(handler)
        return subscription(for: subscriber) { deliver in
            storage.addObserver { id, state in
                KeyPathObserver<State, Value>(id: id, keyPath: keyPath, in: state, handler: deliver)
            }
        }
    }

    /// Calls `handler` each time one of the values at several key paths changes; see
    /// ``observe(_:handler:)-2y9rj``.
    @inlinable
    @discardableResult
    public func observe<each Value: Equatable & Sendable>(
        _ keyPath: repeat any KeyPath<State, each Value> & Sendable,
        @_inheritActorContext handler: @escaping @isolated(any) @Sendable (repeat each Value) -> Void
    ) -> EmitterSubscription {
        let storage = self.storage
        let subscriber = IsolatedHandler.subscriber(AssumedIsolation<(repeat each Value)>.pack(handler))
        return subscription(for: subscriber) { deliver in
            storage.addObserver { id, state in
                let values = (repeat ObservedValue<State, each Value>(each keyPath, in: state, isEqual: ==))
                var words: [Range<Int>]? = []
                for value in repeat each values {
                    if let range = value.words {
                        words?.append(range)
                    } else {
                        words = nil
                    }
                }
                return ClosureStateObserver(
                    id: id,
                    words: ObservedWords(words),
                    captureFromStorage: { base in
                        for value in repeat each values { value.capture(fromStorage: base) }
                    },
                    captureFromState: { state in
                        for value in repeat each values { value.capture(from: state) }
                    },
                    fire: {
                        var changed = false
                        for value in repeat each values {
                            if value.commit() { changed = true }
                        }
                        if changed { deliver((repeat (each values).lastValue())) }
                    }
                )
            }
        }
    }

    /// The subscription of the observer that `addObserver` adds, for `subscriber`'s handler (one
    /// that stops its relay first, for a handler isolated to an actor, see `IsolatedSubscriber`).
    /// It joins the current ``/ComposeEmitters/ObservationScope``; in a scope that has ended,
    /// nothing is added.
    @inlinable
    func subscription<Value>(
        for subscriber: IsolatedSubscriber<Value>,
        adding addObserver: (_ deliver: @escaping @Sendable (Value) -> Void) -> StateObserver<State>
    ) -> EmitterSubscription {
        RegistrationAudit.check(storage)
        let storage = self.storage
        return ObservationScope.joiningCurrent(subscriber) { subscriber in
            subscriber.subscription(
                for: RemovingSubscription(owner: storage, registration: addObserver(subscriber.handler)))
        }
    }

    /// Calls `onSuccess` when the `Async` value at `keyPath` becomes a new success, and
    /// `onFailure` when it fails. Cyanic's and MvRx's `asyncSubscribe`.
    ///
    /// ```swift
    /// $state.asyncSubscribe(\.profile, onSuccess: { profile in show(profile) },
    ///                       onFailure: { error in report(error) })
    /// ```
    ///
    /// - Returns: The subscription; it joins the current ``/ComposeEmitters/ObservationScope``.
    @discardableResult
    public func asyncSubscribe<Value: Equatable & Sendable>(
        _ keyPath: any KeyPath<State, Async<Value>> & Sendable,
        @_inheritActorContext onSuccess: @escaping @isolated(any) @Sendable (Value) -> Void,
        @_inheritActorContext onFailure: @escaping @isolated(any) @Sendable (any Error) -> Void = { _ in }
    ) -> EmitterSubscription {
        // One observer per callback, each delivered where its closure was written.
        let success = AssumedIsolation(onSuccess)
        let failure = AssumedIsolation(onFailure)
        return EmitterSubscription([
            observe(
                keyPath,
                subscriber: IsolatedHandler.subscriber(
                    AssumedIsolation(isolation: success.isolation) { value in
                        if case .success(let value) = value { success.callAssumingIsolation(value) }
                    })
            ),
            observe(
                keyPath,
                subscriber: IsolatedHandler.subscriber(
                    AssumedIsolation(isolation: failure.isolation) { value in
                        if case .failure(let error, _) = value { failure.callAssumingIsolation(error.error) }
                    })
            ),
        ])
    }

    /// ``observe(_:handler:)-(KeyPath<State,Value>&Sendable,_)`` for a handler already made.
    @usableFromInline
    func observe<Value: Equatable & Sendable>(
        _ keyPath: any KeyPath<State, Value> & Sendable,
        subscriber: IsolatedSubscriber<Value>
    ) -> EmitterSubscription {
        return subscription(for: subscriber) { deliver in
            storage.addObserver { id, state in
                KeyPathObserver<State, Value>(id: id, keyPath: keyPath, in: state, handler: deliver)
            }
        }
    }
}
