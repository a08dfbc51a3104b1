/// A weak reference in a small class of its own, so that only references to the box are ever
/// copied, never the weak reference itself.
///
/// Swift 6.3.1 debug builds miscompile copies of a struct holding a weak reference out of an
/// `inout` dictionary's subscript through optional chaining (a lookup racing the object's
/// deinit crashed under ThreadSanitizer that way). Tables of weak references (the live entities
/// of `@Ref`, the live autosavers, the live component nodes) hold these boxes.
package final class WeakBox<Object: AnyObject>: @unchecked Sendable {  // The reference is guarded by whoever holds the box.
    package weak var object: Object?
    /// The object's identity, kept to tell its own box from a newer object's (the weak
    /// reference is already `nil` when the object's deinit runs).
    package let identity: ObjectIdentifier

    package init(_ object: Object) {
        self.object = object
        self.identity = ObjectIdentifier(object)
    }
}
