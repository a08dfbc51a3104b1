import ComposeMachinery

/// The subscription handed out for an entry of an ``EmitterCore``. Cancelling it removes the
/// entry.
///
/// Small on purpose (40 bytes), since every subscriber pays for one: its ``payload`` is the
/// core's ``RegistryHandle``, shared by all the core's tokens, and its own field is the entry's
/// index. Not generic, so the registry's bookkeeping does not depend on the value type.
@usableFromInline
package final class EmitterToken: EmitterSubscription, @unchecked Sendable {
    /// The entry's position in the core's entries. Guarded by the core's lock.
    @usableFromInline var index = 0

    @inlinable
    init(handle: RegistryHandle) {
        super.init(payload: handle)
    }

    /// Removes the entry, at every cancel: a later one, made while the first is still on its way
    /// to the core's lock on another thread, returns no sooner than the entry is gone (removing
    /// it again finds nothing). Removing it waits for nobody.
    override func didCancel(first: Bool) {
        let handle = unsafeDowncast(payload.unsafelyUnwrapped, to: RegistryHandle.self)
        if let registry = handle.registry.retainIfAlive() { handle.remove(registry, self) }
    }
}

/// How a token reaches the core it was registered with: one per core, made with its first
/// registration and held by every token, pointing back weakly (without giving the core a side
/// table, see `LightWeakReference`). A token may outlive its emitter, and a strong reference
/// would make every uncancelled registration keep its emitter alive.
@usableFromInline
package final class RegistryHandle: Sendable {
    @usableFromInline let registry: LightWeakReference<AnyObject>
    /// Removes a token's entry: a capture-less closure formed where the value type is known.
    @usableFromInline let remove: @Sendable (AnyObject, EmitterToken) -> Void

    @inlinable
    init(registry: AnyObject, remove: @escaping @Sendable (AnyObject, EmitterToken) -> Void) {
        self.registry = LightWeakReference(registry)
        self.remove = remove
    }
}

/// What a ``RemovingSubscription`` removes its registration from.
@usableFromInline
package protocol RegistrationOwner: AnyObject, Sendable {
    /// Removes `registration`, made on this owner, and marks it so that a delivery under way
    /// skips it. Called at every cancel of its subscription: a second call finds nothing to do.
    func removeRegistration(_ registration: AnyObject)
}

/// A subscription that removes one registration from an owner it holds weakly, without a
/// closure: what a module built on the emitters (a store's keypath observers) returns for each
/// registration. Generic over the owner's type, so that it holds no function to call (a closure
/// would be 16 bytes of every subscription).
@usableFromInline
package final class RemovingSubscription<Owner: RegistrationOwner>: EmitterSubscription, @unchecked Sendable {  // Immutable.
    /// What the registration was made on; weak (without a side table, see
    /// `LightWeakReference`), so the subscription never keeps it alive.
    @usableFromInline let owner: LightWeakReference<Owner>

    /// A subscription that removes `registration` from `owner` when cancelled, if `owner` is
    /// still alive.
    @inlinable
    package init(owner: Owner, registration: AnyObject) {
        self.owner = LightWeakReference(owner)
        super.init(payload: registration)
    }

    /// Removes the registration, at every cancel, as ``EmitterToken`` does (the owner's removal
    /// finds nothing the second time). Removing it waits for nobody.
    override func didCancel(first: Bool) {
        if let owner = owner.retainIfAlive() { owner.removeRegistration(payload.unsafelyUnwrapped) }
    }
}
