/// A weak reference that gives its object no side table: ``retainIfAlive()`` returns the object,
/// retained, unless its deinitialization has begun, as loading a `weak` reference does.
///
/// The first `weak` reference to an object gives it a side table for good, and from then on
/// every retain and release of the object, anywhere, takes the runtime's slow path through that
/// table. A store is retained and released on every notice it delivers, and every keypath
/// observer's subscription, its notifier and its ear on the entities it refers to held it
/// weakly: the slow paths were 8% of a ref write's time by `perf` (see the Performance article).
///
/// This holds the object `unowned` instead, which keeps the object's memory (not its life)
/// while the reference exists, so the object's reference counts can always be read; and
/// ``retainIfAlive()`` asks the runtime for a strong reference with `swift_tryRetain`, which
/// succeeds unless the object's deinitialization has begun: the same test a weak load makes.
/// It never reads the `unowned` reference itself (that would trap once the object is gone).
///
/// The price: after the object's deinit has run, its memory (the instance, whose fields are
/// already destroyed) is freed only when the last of these references goes, where a `weak`
/// reference keeps only the side table. Use it where the reference rarely outlives its object
/// for long: a subscription, a listener, a handler the object owns, a table whose objects remove
/// themselves in their deinit (the `@Ref` registry).
///
/// ## The two references that keep no object alive
/// Compose has two, and no other (no `unowned` capture, no bare address):
/// - Swift's `weak` (`[weak x]`, `weak var`, ``WeakBox`` for tables), where the object's side
///   table costs nothing that matters: rarely retained objects, cold paths;
/// - this one, where the object is retained on a hot path (a store, an emitter's core, an entity).
/// Neither is used on objects reference-counted by the Objective-C runtime: Compose's objects are
/// Swift classes, and `swift_tryRetain` is the Swift runtime's.
@usableFromInline
package struct LightWeakReference<Object: AnyObject>: @unchecked Sendable {  // Immutable; the runtime's counts are atomic.
    /// Keeps the object's memory while this reference exists. Never read.
    @usableFromInline unowned let keeper: Object
    /// The object's address, for `swift_tryRetain`.
    @usableFromInline let address: UnsafeMutableRawPointer

    /// A reference to `object` that does not keep it alive.
    @inlinable
    package init(_ object: Object) {
        keeper = object
        address = Unmanaged.passUnretained(object).toOpaque()
    }

    /// Whether this is a reference to `object`: compares addresses only, so the object's own
    /// `deinit` may ask it (a table removing the object's entry, if it is still its own).
    @inlinable
    package func refers(to object: Object) -> Bool {
        address == Unmanaged.passUnretained(object).toOpaque()
    }

    /// The object, retained, unless its deinitialization has begun.
    @inlinable
    package func retainIfAlive() -> Object? {
        guard let retained = SwiftRuntime.tryRetain(address) else { return nil }
        assert(retained == address, "Compose: swift_tryRetain returned another object")
        return Unmanaged<Object>.fromOpaque(address).takeRetainedValue()
    }
}
