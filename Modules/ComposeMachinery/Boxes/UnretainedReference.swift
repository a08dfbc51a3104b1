/// A reference that does not keep its object alive and does not make it slower: for a table that
/// finds live objects without owning them, whose objects remove themselves in their `deinit`.
///
/// A `weak` reference does the same job, but it gives its object a side table for good, and from
/// then on every retain and release of the object goes through the side table: an `@Ref` entity,
/// retained and released by every copy of every state that holds it, paid that on each copy.
/// This holds the object's address instead, and ``retainIfAlive()`` asks the Swift runtime for a
/// strong reference with `swift_tryRetain`, which succeeds unless the object's deinitialization has
/// begun: exactly what loading a weak reference does (the runtime's weak references use the same
/// test), without the side table.
///
/// Sound only under the protocol the table keeps, which makes it the only way the address is
/// ever read:
/// - the table is guarded by one lock, and ``retainIfAlive()`` and ``refers(to:)`` are called
///   under it;
/// - the object's `deinit` takes that lock and removes the reference if it is still its own
///   (a newer object for the same key may have replaced it).
///
/// Then the address is never read after the object is freed: freeing comes after `deinit`, which
/// waits for the lock. And a reference to an object whose last strong reference went away, but
/// whose `deinit` still waits for the lock, is never resurrected: `swift_tryRetain` refuses it.
package struct UnretainedReference<Object: AnyObject>: @unchecked Sendable {  // An address, read under the table's lock.
    private let address: UnsafeMutableRawPointer

    /// A reference to `object`, which it does not retain.
    package init(_ object: Object) {
        address = Unmanaged.passUnretained(object).toOpaque()
    }

    /// The object, retained, unless its deinitialization has begun. Call it under the lock its
    /// `deinit` takes.
    package func retainIfAlive() -> Object? {
        guard let retained = SwiftRuntime.tryRetain(address) else { return nil }
        assert(retained == address, "Compose: swift_tryRetain returned another object")
        return Unmanaged<Object>.fromOpaque(address).takeRetainedValue()
    }

    /// Whether this is a reference to `object`. Reads no more than the address, so the object's
    /// own `deinit` may ask it.
    package func refers(to object: Object) -> Bool {
        address == Unmanaged.passUnretained(object).toOpaque()
    }
}
