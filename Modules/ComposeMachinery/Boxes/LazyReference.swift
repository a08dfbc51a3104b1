import Synchronization

/// A reference made the first time it is asked for, by whichever thread asks first, and kept
/// until the owner goes away.
///
/// For the parts of an object that most instances never use (a store's change emitters, its
/// `setState` queue, its Observation registrar): a store nobody observes then costs a few hundred
/// bytes instead of a few kilobytes. Reading a made reference is one acquiring load; no lock is
/// ever taken. Two threads asking at once may both make one: the first to publish wins, the
/// other's is released and the winner returned, so everyone sees the same object. `make` must
/// therefore have no effect beyond making the object.
///
/// `@unchecked Sendable`: the object is published with release and read with acquire.
@usableFromInline
package struct LazyReference<Object: AnyObject>: ~Copyable, @unchecked Sendable {
    /// The object's address (retained once), or 0.
    @usableFromInline
    let address = Atomic<UInt>(0)

    @inlinable
    package init() {}

    deinit {
        let bits = address.load(ordering: .acquiring)
        if bits != 0 { Unmanaged<Object>.fromOpaque(UnsafeRawPointer(bitPattern: bits)!).release() }
    }

    /// The object if it was made; `nil` otherwise. Never makes it.
    @inlinable
    package var ifMade: Object? {
        let bits = address.load(ordering: .acquiring)
        guard bits != 0 else { return nil }
        return Unmanaged<Object>.fromOpaque(UnsafeRawPointer(bitPattern: bits)!).takeUnretainedValue()
    }

    /// The object, made by `make` if nobody made it yet.
    @inlinable
    package func get(orMake make: () -> Object) -> Object {
        if let object = ifMade { return object }
        return publish(make())
    }

    /// Calls `body` with the object, made by `make` if nobody made it yet, without retaining
    /// it: this reference keeps it until the owner goes away, and the owner is alive while one
    /// of its methods calls this. For a hot path, where a retain and a release are two atomic
    /// operations of the few it makes.
    @inlinable
    package func withObject<Result>(orMake make: () -> Object, _ body: (Object) throws -> Result) rethrows -> Result {
        let bits = address.load(ordering: .acquiring)
        if bits != 0 {
            return try Unmanaged<Object>.fromOpaque(UnsafeRawPointer(bitPattern: bits)!)._withUnsafeGuaranteedRef(body)
        }
        return try body(publish(make()))
    }

    @usableFromInline
    func publish(_ object: Object) -> Object {
        let bits = UInt(bitPattern: Unmanaged.passRetained(object).toOpaque())
        let (exchanged, current) = address.compareExchange(
            expected: 0,
            desired: bits,
            successOrdering: .releasing,
            failureOrdering: .acquiring
        )
        if exchanged { return object }
        // Somebody else's was published first: use theirs; ours goes away with `object`.
        Unmanaged<Object>.fromOpaque(UnsafeRawPointer(bitPattern: bits)!).release()
        return Unmanaged<Object>.fromOpaque(UnsafeRawPointer(bitPattern: current)!).takeUnretainedValue()
    }
}
