/// A value that arrives asynchronously, in a state: MvRx's `Async`.
///
/// ```swift
/// struct State: AnyState {
///     var profile: Async<Profile> = .uninitialized
/// }
/// $state.execute(\.profile) { try await api.profile() }
/// ```
///
/// While loading and after a failure, the previous value is kept (``value``), so a screen can keep
/// showing it.
public enum Async<Value: Sendable>: Sendable {
    /// Nothing was requested yet.
    case uninitialized
    /// A request is running.
    case loading(previous: Value?)
    /// The request succeeded.
    case success(Value)
    /// The request failed.
    case failure(AsyncFailure, previous: Value?)

    /// The latest value: the success, or the value kept while loading or after a failure.
    public var value: Value? {
        switch self {
        case .uninitialized: nil
        case .loading(let previous), .failure(_, let previous): previous
        case .success(let value): value
        }
    }

    /// Whether a request is running.
    public var isLoading: Bool {
        if case .loading = self { return true }
        return false
    }

    /// Whether the last request finished, successfully or not.
    public var isComplete: Bool {
        switch self {
        case .success, .failure: true
        case .uninitialized, .loading: false
        }
    }

    /// The failure of the last request, if it failed.
    public var failure: AsyncFailure? {
        if case .failure(let failure, _) = self { return failure }
        return nil
    }
}

extension Async: Equatable where Value: Equatable {}
extension Async: Hashable where Value: Hashable {}
