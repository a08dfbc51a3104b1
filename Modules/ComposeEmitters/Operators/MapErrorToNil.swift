/// A type that is, or wraps, a `Result`: lets ``Emitter/mapErrorToNil`` be a property, as in
/// Compose's original API, on emitters of any `Result` type.
public protocol ResultConvertible {
    /// The type of a successful value.
    associatedtype Success
    /// The type of a failure.
    associatedtype Failure: Error

    /// The value as a `Result`.
    var result: Result<Success, Failure> { get }
}

extension Result: ResultConvertible {
    public var result: Result<Success, Failure> { self }
}

extension Emitter where Value: ResultConvertible, Value.Success: Sendable {
    /// Turns `Result` values into optionals: a success into its value, a failure into `nil`.
    ///
    /// ```swift
    /// let emitter = ValueEmitter<Result<Int, ValueError>>()
    /// emitter.mapErrorToNil += { value in
    ///     guard let value else { return }
    ///     print("Received:", value)
    /// }
    /// ```
    @inlinable
    public var mapErrorToNil: Emitters.Map<Self, Value.Success?> {
        map { try? $0.result.get() }
    }
}
