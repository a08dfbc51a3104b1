/// A value in a final class.
///
/// Swift 6.3.1 release builds crash pushing a task-local value whose type is an optional
/// closure (`@TaskLocal static var handler: (@Sendable (X) -> Void)?`, then `withValue`): a
/// task-local of type `Box<...>?` does not. `Diagnostics` and the registration audit keep their
/// handlers in one.
package final class Box<Value: Sendable>: Sendable {
    package let value: Value

    package init(_ value: Value) {
        self.value = value
    }
}
