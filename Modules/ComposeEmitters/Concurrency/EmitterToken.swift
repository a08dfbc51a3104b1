/// The subscription handed out for an entry of an ``EmitterCore``. Cancelling it removes the
/// entry.
///
/// Not generic, so the registry's bookkeeping does not depend on the value type; the removal
/// itself runs through `remove`, a capture-less closure formed where the value type is known.
@usableFromInline
package final class EmitterToken: EmitterSubscription, @unchecked Sendable {
    /// The core the entry lives in. Weak: a token may outlive its emitter, and a strong reference
    /// would make every uncancelled registration keep its emitter alive.
    @usableFromInline weak let core: AnyObject?
    /// The entry's position in the core's entries. Guarded by the core's lock.
    @usableFromInline var index = 0
    @usableFromInline let remove: @Sendable (AnyObject, EmitterToken) -> Void

    @inlinable
    init(core: AnyObject, remove: @escaping @Sendable (AnyObject, EmitterToken) -> Void) {
        self.core = core
        self.remove = remove
        super.init()
    }

    override func didCancel() {
        if let core { remove(core, self) }
    }
}
