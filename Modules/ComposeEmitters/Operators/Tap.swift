import ComposeMachinery

extension Emitter {
    /// Sends the value at `keyPath` of every value.
    ///
    /// ```swift
    /// emitter.tap(\.firstName) += { firstName in print("First name: \(firstName)") }
    /// ```
    ///
    /// Combine with `undup()` to hear only changes of one property:
    /// `$state.willChange.tap(\.firstName).undup()`.
    ///
    /// The key path is read where `tap` is called, as a ``map(_:)`` closure written there runs:
    /// in main-actor code, on the main actor, so a key path into a main-actor type (which Swift
    /// does not let other threads use) works; in nonisolated code, on the delivering thread.
    ///
    /// - Parameters:
    ///   - keyPath: The property to send. It is handed over (`sending`): the emitter uses it only
    ///     where `isolation` holds.
    ///   - isolation: The caller's isolation; leave the default.
    @inlinable
    public func tap<Property: Sendable>(
        _ keyPath: sending KeyPath<Value, Property>,
        isolation: isolated (any Actor)? = #isolation
    ) -> Emitters.Map<Self, Property> {
        // Sound: the key path was handed over, and the function using it is called only where
        // `isolation` holds (`AssumedIsolationReturning`).
        let handedOver = HandedOverKeyPath(keyPath: keyPath)
        return Emitters.Map(
            upstream: self,
            transform: AssumedIsolationReturning(isolation: isolation) { value in value[keyPath: handedOver.keyPath] }
        )
    }
}

/// A key path handed over to `tap`, used only where the caller's isolation holds.
@usableFromInline
struct HandedOverKeyPath<Root, Property>: @unchecked Sendable {  // Immutable; used in one isolation.
    @usableFromInline let keyPath: KeyPath<Root, Property>

    @inlinable
    init(keyPath: KeyPath<Root, Property>) {
        self.keyPath = keyPath
    }
}
