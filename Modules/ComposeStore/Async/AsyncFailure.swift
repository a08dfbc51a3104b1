import Synchronization

/// The error of a failed ``Async`` value.
///
/// Errors are not `Equatable`, and a state must be: each failure gets an identity of its own, so
/// two failures are equal only if they are the same failure, and a new failure always counts as
/// a change, even with an equal error.
public struct AsyncFailure: Error, Hashable, Sendable, CustomStringConvertible {
    private static let counter = Atomic<UInt64>(0)

    /// The error that was thrown.
    public let error: any Error
    private let identity: UInt64

    /// A new failure with `error`.
    public init(_ error: any Error) {
        self.error = error
        self.identity = Self.counter.add(1, ordering: .relaxed).newValue
    }

    public static func == (lhs: AsyncFailure, rhs: AsyncFailure) -> Bool {
        lhs.identity == rhs.identity
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(identity)
    }

    public var description: String {
        "\(error)"
    }
}
