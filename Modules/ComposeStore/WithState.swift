/// Reads the states of one or more stores, synchronously, on the current thread: Cyanic's global
/// `withState`.
///
/// ```swift
/// withState(logIn, profile) { logInState, profileState in
///     print(logInState.email, profileState.name)
/// }
/// ```
///
/// Each state is read as it is at that moment; queued `setState` work is not waited for.
///
/// - Returns: What `body` returns.
public func withState<each S: AnyState, Result>(
    _ store: repeat Store<each S>,
    body: (repeat each S) throws -> Result
) rethrows -> Result {
    try body(repeat currentState(of: each store))
}

/// A function rather than `(each store).wrappedValue`: Swift 6.3 crashes compiling a pack
/// expansion that reads a property.
private func currentState<S: AnyState>(of store: Store<S>) -> S {
    store.wrappedValue
}
