import ComposeEmitters

extension Store {
    /// Calls `handler` with a ``Changeset`` each time the identified array at `keyPath` changes:
    /// what was removed, inserted, moved and updated since the array the handler last heard.
    ///
    /// ```swift
    /// $state.observeChanges(\.specimens) { changeset in
    ///     tableView.performBatchUpdates { /* apply changeset */ }
    /// }
    /// ```
    ///
    /// Works for any `[Element]` in the state, ComposeRefs' `@RefCollection` included. Like
    /// ``observe(_:handler:)-2y9rj``, the handler runs only when the
    /// array differs from what it last heard, and if several writes land before it runs, it
    /// hears one changeset from the array it last heard to the latest one, so applying every
    /// changeset it hears, in order, to the array it started with always gives the current array.
    ///
    /// - Parameters:
    ///   - keyPath: The array to watch.
    ///   - handler: Called with the changeset.
    /// - Returns: The subscription; cancelling it stops the handler. It joins the current
    ///   ``/ComposeEmitters/ObservationScope``.
    /// - Complexity: Each call diffs the two arrays, O(*n* + *m*).
    @inlinable
    @discardableResult
    public func observeChanges<Element: Identifiable & Equatable & Sendable>(
        _ keyPath: any KeyPath<State, [Element]> & Sendable,
        @_inheritActorContext handler: @escaping @isolated(any) @Sendable (Changeset<Element>) -> Void
    ) -> EmitterSubscription {
        let storage = self.storage
        let subscriber = IsolatedHandler.subscriber(handler)
        return subscription(for: subscriber) { deliver in
            storage.addObserver { id, state in
                let value = ObservedValue<State, [Element]>(keyPath, in: state, isEqual: ==)
                return ClosureStateObserver(
                    id: id,
                    words: ObservedWords(value.words),
                    captureFromStorage: { value.capture(fromStorage: $0) },
                    captureFromState: { value.capture(from: $0) },
                    fire: {
                        let old = value.lastValue()
                        if value.commit() { deliver(Changeset(from: old, to: value.lastValue())) }
                    }
                )
            }
        }
    }
}
