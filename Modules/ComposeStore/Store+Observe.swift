import ComposeEmitters

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
    /// The subscription joins the current ``ObservationScope``.
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
        handler: @escaping @Sendable (Value) -> Void
    ) -> EmitterSubscription {
        // One key path, the common case, without parameter packs: code iterating a pack is not
        // specialized per element, and this path runs for every change an observer hears.
        let storage = self.storage
        let observer = storage.addObserver { id, state in
            KeyPathObserver<State, Value>(id: id, keyPath: keyPath, in: state, handler: handler)
        }
        return subscription(removing: observer)
    }

    /// Calls `handler` each time one of the values at several key paths changes; see
    /// ``observe(_:handler:)-(KeyPath<State,Value>&Sendable,_)``.
    @inlinable
    @discardableResult
    public func observe<each Value: Equatable & Sendable>(
        _ keyPath: repeat any KeyPath<State, each Value> & Sendable,
        handler: @escaping @Sendable (repeat each Value) -> Void
    ) -> EmitterSubscription {
        let storage = self.storage
        let observer = storage.addObserver { id, state in
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
                words: words,
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
                    if changed { handler(repeat (each values).lastValue()) }
                }
            )
        }
        return subscription(removing: observer)
    }

    /// The subscription that removes `observer`; it joins the current ``ObservationScope``.
    @usableFromInline
    func subscription(removing observer: StateObserver<State>) -> EmitterSubscription {
        RegistrationAudit.check(storage)
        let subscription = RemovingSubscription(owner: storage, registration: observer) { storage, observer in
            unsafeDowncast(storage, to: StoreStorage<State>.self)
                .removeObserver(unsafeDowncast(observer, to: StateObserver<State>.self))
        }
        ObservationScope.current?.adopt(subscription)
        return subscription
    }

    /// Calls `onSuccess` when the `Async` value at `keyPath` becomes a new success, and
    /// `onFailure` when it fails. Cyanic's and MvRx's `asyncSubscribe`.
    ///
    /// ```swift
    /// $state.asyncSubscribe(\.profile, onSuccess: { profile in show(profile) },
    ///                       onFailure: { error in report(error) })
    /// ```
    ///
    /// - Returns: The subscription; it joins the current ``ObservationScope``.
    @discardableResult
    public func asyncSubscribe<Value: Equatable & Sendable>(
        _ keyPath: any KeyPath<State, Async<Value>> & Sendable,
        onSuccess: @escaping @Sendable (Value) -> Void,
        onFailure: @escaping @Sendable (any Error) -> Void = { _ in }
    ) -> EmitterSubscription {
        observe(keyPath) { value in
            switch value {
            case .success(let success): onSuccess(success)
            case .failure(let failure, _): onFailure(failure.error)
            case .uninitialized, .loading: break
            }
        }
    }
}
