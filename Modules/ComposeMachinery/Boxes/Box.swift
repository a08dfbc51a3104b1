/// A value in a final class.
///
/// - A task-local: Swift 6.3.1 release builds crash pushing a task-local value whose type is an
///   optional closure (`@TaskLocal static var handler: (@Sendable (X) -> Void)?`, then
///   `withValue`); a task-local of type `Box<...>?` does not. `Diagnostics` and the registration
///   audit keep their handlers in one.
/// - A large value that is often absent: `Box<State>?` is one word, where `Optional<State>` is as
///   large as the state and is zeroed when `nil` (8 KB for a state of 1,000 integers).
@usableFromInline
package final class Box<Value: Sendable>: Sendable {
    @usableFromInline
    package let value: Value

    @inlinable
    package init(_ value: Value) {
        self.value = value
    }
}
