import CComposeShims

/// Entry points of the Swift runtime that the language does not spell, called through
/// `CComposeShims` (declared there, linked directly, never looked up at run time).
///
/// The one Compose relies on is `swift_tryRetain`, the test a load of a `weak` reference makes:
/// it retains the object unless its deinitialization has begun. Its behaviour is pinned by
/// `SwiftRuntimeTests` (a live object is retained, one whose deinit has begun is refused).
@usableFromInline
package enum SwiftRuntime {
    /// Retains the object at `address` and returns it, or returns `nil` without retaining it if
    /// its deinitialization has begun.
    ///
    /// - Precondition: `address` is a Swift object's, and its memory is not freed (a
    ///   `LightWeakReference` keeps it).
    @inlinable
    package static func tryRetain(_ address: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer? {
        compose_try_retain(address)
    }
}
