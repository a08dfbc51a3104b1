/// The state a ``Store`` holds.
///
/// A state is a value type with a default for every property, so a store can create it with
/// `init()`. `Equatable` lets the store tell which changes matter; `Sendable` lets it hand the
/// state to observers on any thread.
///
/// ```swift
/// struct State: AnyState {
///     var firstName = ""
///     var lastName = ""
/// }
/// ```
///
/// Properties should be value types: the store detects changes by comparing values, so an update
/// made inside a class instance held by the state is not seen as a change.
public protocol AnyState: Equatable, Sendable {
    /// A state with every property at its default.
    init()
}
