import ComposeEmitters

/// An emitter of a store's states or changes, returned by ``Store/willChange`` and
/// ``Store/didChange``.
public struct StoreEmitter<Value: Sendable>: Emitter {
    let core: EmitterCore<Value>

    public func register(_ handler: @escaping @Sendable (Value) -> Void) -> EmitterSubscription {
        RegistrationAudit.check(core)
        return core.register(handler)
    }
}

extension Store {
    /// Sends the new state after each change: `$state.willChange += { state in ... }`.
    ///
    /// ```swift
    /// $state.willChange += { state in
    ///     print("New full name is \(state.firstName) \(state.lastName).")
    /// }
    /// $state.willChange.undup().tap(\.firstName) += { firstName in ... }
    /// ```
    ///
    /// The name is Compose's (after Combine's `objectWillChange`); it is sent once the change has
    /// been committed, with the state that resulted, for every write that changed the state's
    /// value (`==`; an equal value with other bytes, such as a rebuilt `Set`, is not a change), in
    /// commit order. To follow one property, ``observe(_:handler:)-2y9rj`` is cheaper: it is not called
    /// for changes elsewhere, and the store keeps no copy of the state for it.
    public var willChange: StoreEmitter<State> {
        StoreEmitter(core: storage.willChange)
    }

    /// Sends the old and the new state after each change of the state's value (`==`), in commit
    /// order.
    ///
    /// ```swift
    /// $state.didChange += { change in
    ///     if change.changed(\.email) { validate(change.new.email) }
    /// }
    /// ```
    public var didChange: StoreEmitter<StateChange<State>> {
        StoreEmitter(core: storage.didChange)
    }
}

extension Store: SubscriptionSource {
    /// The storage (keypath observers) and the cores of `willChange` and `didChange`.
    package var subscriptionIdentities: [ObjectIdentifier] {
        [ObjectIdentifier(storage), ObjectIdentifier(storage.willChange), ObjectIdentifier(storage.didChange)]
    }
}
