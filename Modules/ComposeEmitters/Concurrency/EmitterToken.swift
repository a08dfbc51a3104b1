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

    override func didCancel() {
        let handle = unsafeDowncast(payload.unsafelyUnwrapped, to: RegistryHandle.self)
        if let registry = handle.registry { handle.remove(registry, self) }
    }
}

/// How a token reaches the core it was registered with: one per core, made with its first
/// registration and held by every token, pointing back weakly. A token may outlive its emitter,
/// and a strong reference would make every uncancelled registration keep its emitter alive.
@usableFromInline
package final class RegistryHandle: @unchecked Sendable {  // Immutable but for the weak reference.
    @usableFromInline weak var registry: AnyObject?
    /// Removes a token's entry: a capture-less closure formed where the value type is known.
    @usableFromInline let remove: @Sendable (AnyObject, EmitterToken) -> Void

    @inlinable
    init(registry: AnyObject, remove: @escaping @Sendable (AnyObject, EmitterToken) -> Void) {
        self.registry = registry
        self.remove = remove
    }
}

/// A subscription that removes one registration from an owner it holds weakly, without a
/// closure context or a boxed closure: what a module built on the emitters (a store's keypath
/// observers) returns for each registration.
@usableFromInline
package final class RemovingSubscription: EmitterSubscription, @unchecked Sendable {  // Immutable but for the weak reference.
    /// What the registration was made on; weak, so the subscription never keeps it alive.
    weak var owner: AnyObject?
    /// Removes the registration (kept in ``EmitterSubscription/payload``) from `owner`: a
    /// capture-less closure formed where the owner's type is known.
    let remove: @Sendable (_ owner: AnyObject, _ registration: AnyObject) -> Void

    /// A subscription that calls `remove(owner, registration)` when cancelled, if `owner` is
    /// still alive.
    @usableFromInline
    package init(
        owner: AnyObject,
        registration: AnyObject,
        remove: @escaping @Sendable (_ owner: AnyObject, _ registration: AnyObject) -> Void
    ) {
        self.owner = owner
        self.remove = remove
        super.init(payload: registration)
    }

    override func didCancel() {
        if let owner { remove(owner, payload.unsafelyUnwrapped) }
    }
}
