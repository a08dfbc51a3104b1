import ComposeMachinery

extension Store {
    /// Queues a mutation, Cyanic- and MvRx-style.
    ///
    /// ```swift
    /// // state.foo == "Hi"
    /// $state.withState { state in print(state.foo) }
    /// $state.setState { state in state.foo = "Hello, World!" }
    /// $state.withState { state in print(state.foo) }
    /// // "Hello, World!"
    /// // "Hello, World!"
    /// ```
    ///
    /// Ordering rules of the queue:
    /// 1. Queued work runs one piece at a time: on a background task, or, for a closure written
    ///    in main-actor code, on the main actor (and in an actor's code, on that actor). So a
    ///    main-actor app's `setState` commits on the main actor, where its views observe it.
    /// 2. Mutations run in the order they were queued.
    /// 3. Every pending mutation runs before any pending `withState`: a `withState` sees the
    ///    state after every `setState` queued before it (and after those queued before it runs).
    /// 4. A mutation is applied like ``mutate(_:)``: atomically, with one notification.
    ///
    /// A write through the wrapper, a keyed write or `mutate` does not wait for the queue: it
    /// commits at once.
    public func setState(
        @_inheritActorContext _ mutation: @escaping @isolated(any) @Sendable (inout State) -> Void
    ) {
        storage.stateQueue.enqueue(mutation: mutation)
    }

    /// Queues a read that runs after every `setState` queued before it, where its closure was
    /// written (see ``setState(_:)``).
    public func withState(@_inheritActorContext _ body: @escaping @isolated(any) @Sendable (State) -> Void) {
        storage.stateQueue.enqueue(read: body)
    }

    /// The state once every `setState` queued before this call has run: an awaitable
    /// ``withState(_:)``.
    public func settled() async -> State {
        await withCheckedContinuation { continuation in
            withState { continuation.resume(returning: $0) }
        }
    }
}

extension Store {
    /// The asynchronous work of the store still going: queued `setState`/`withState` pieces, and
    /// the key paths of running `execute` calls. For test helpers.
    package var pendingWork: (queued: Int, executing: [AnyKeyPath]) {
        (storage.lazyStateQueue.ifMade?.pendingCount ?? 0, storage.lazyExecutions.ifMade?.runningKeyPaths ?? [])
    }
}
