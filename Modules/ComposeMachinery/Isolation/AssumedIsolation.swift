/// The one place Compose calls an `@isolated(any)` function synchronously.
///
/// Every subscribing API (`+=`, `observe`, `setState`, ...) takes its closure as
/// `@_inheritActorContext @isolated(any) @Sendable`, so a closure written in main-actor code is
/// main-actor isolated and may use main-actor state, with no annotation. Swift calls such a
/// function only with `await` (SE-0431), while Compose delivers synchronously: on the sending
/// thread for a nonisolated handler, on the handler's actor for an isolated one (a ``Relay``
/// running there). An `@isolated(any)` function is an ordinary thick function whose context also
/// carries its isolation, so it can be called as the same function type without the attribute;
/// that is sound only where the caller is isolated as the function requires: anywhere for a
/// nonisolated function, and only on its actor for an isolated one. The standard library's
/// `MainActor.assumeIsolated` rests on the same equivalence of isolated and nonisolated function
/// types.
///
/// So the reinterpretation lives here and nowhere else, and it is checked:
/// - `AssumedIsolationTests` pins the layout it relies on (one size, and a call that reaches the
///   closure with its captures, for values, no values and `inout` values);
/// - in debug builds, every call of an isolated function first asks the runtime to confirm the
///   isolation (`preconditionIsolated()` of its actor), so a wrong assumption traps in tests,
///   naming the function, instead of racing.
@frozen
@usableFromInline
package struct AssumedIsolation<Argument>: @unchecked Sendable {  // Immutable; the function is `@Sendable`.
    /// The isolation the function was written in; `nil` for a nonisolated function.
    @usableFromInline package let isolation: (any Actor)?
    /// The function, reinterpreted as nonisolated.
    @usableFromInline let function: @Sendable (Argument) -> Void

    /// Keeps `function` for synchronous calls where its isolation holds.
    @inlinable
    package init(_ function: @escaping @isolated(any) @Sendable (Argument) -> Void) {
        isolation = function.isolation
        self.function = unsafeBitCast(IsolatedAnyFunction(function), to: NonisolatedFunction<Argument>.self).function
    }

    /// Whether the function is nonisolated, and may be called anywhere.
    @inlinable
    package var isNonisolated: Bool { isolation == nil }

    /// Calls the function. The caller must be isolated to ``isolation`` (anywhere when it is
    /// `nil`); debug builds trap if the runtime says otherwise.
    @inlinable
    package func callAssumingIsolation(_ argument: Argument) {
        #if DEBUG
        if let isolation { Self.confirm(isolation) }
        #endif
        function(argument)
    }

    /// The function as a plain one, for a registry that calls it on any thread.
    ///
    /// - Precondition: The function is nonisolated.
    @inlinable
    package var nonisolatedFunction: @Sendable (Argument) -> Void {
        precondition(isolation == nil, "Compose: an isolated function taken as a nonisolated one")
        return function
    }

    @usableFromInline
    static func confirm(_ isolation: any Actor) {
        isolation.preconditionIsolated(
            "Compose: a function written in \(type(of: isolation))'s code was about to be called off it")
    }
}

extension AssumedIsolation where Argument == Void {
    /// Keeps a function without arguments, called with `()`.
    @inlinable
    package init(_ function: @escaping @isolated(any) @Sendable () -> Void) {
        isolation = function.isolation
        let plain = unsafeBitCast(IsolatedAnySignalFunction(function), to: NonisolatedSignalFunction.self).function
        self.function = { _ in plain() }
    }
}

/// A function that takes its argument `inout` (a `setState` mutation), kept for synchronous calls
/// where its isolation holds; see ``AssumedIsolation``.
@frozen
@usableFromInline
package struct AssumedIsolationInout<Argument>: @unchecked Sendable {  // Immutable.
    @usableFromInline package let isolation: (any Actor)?
    @usableFromInline let function: @Sendable (inout Argument) -> Void

    @inlinable
    package init(_ function: @escaping @isolated(any) @Sendable (inout Argument) -> Void) {
        isolation = function.isolation
        self.function = unsafeBitCast(IsolatedAnyInoutFunction(function), to: NonisolatedInoutFunction<Argument>.self).function
    }

    /// Calls the function; see ``AssumedIsolation/callAssumingIsolation(_:)``.
    @inlinable
    package func callAssumingIsolation(_ argument: inout Argument) {
        #if DEBUG
        if let isolation { AssumedIsolation<Void>.confirm(isolation) }
        #endif
        function(&argument)
    }
}

// The functions travel in structs: handing a function value itself to a generic function
// (`unsafeBitCast`) converts it to and from the generic representation of functions, a
// reabstraction thunk each way (an allocation, and a call on every delivery).

@usableFromInline
struct IsolatedAnyFunction<Argument> {
    @usableFromInline let function: @isolated(any) @Sendable (Argument) -> Void
    @inlinable init(_ function: @escaping @isolated(any) @Sendable (Argument) -> Void) { self.function = function }
}

@usableFromInline
struct NonisolatedFunction<Argument> {
    @usableFromInline let function: @Sendable (Argument) -> Void
}

@usableFromInline
struct IsolatedAnySignalFunction {
    @usableFromInline let function: @isolated(any) @Sendable () -> Void
    @inlinable init(_ function: @escaping @isolated(any) @Sendable () -> Void) { self.function = function }
}

@usableFromInline
struct NonisolatedSignalFunction {
    @usableFromInline let function: @Sendable () -> Void
}

@usableFromInline
struct IsolatedAnyInoutFunction<Argument> {
    @usableFromInline let function: @isolated(any) @Sendable (inout Argument) -> Void
    @inlinable init(_ function: @escaping @isolated(any) @Sendable (inout Argument) -> Void) { self.function = function }
}

@usableFromInline
struct NonisolatedInoutFunction<Argument> {
    @usableFromInline let function: @Sendable (inout Argument) -> Void
}

extension AssumedIsolation {
    /// Keeps a function of two arguments, called with them as a pair.
    @inlinable
    package static func pair<First, Second>(
        _ function: @escaping @isolated(any) @Sendable (First, Second) -> Void
    ) -> AssumedIsolation<(First, Second)> {
        let plain = unsafeBitCast(IsolatedAnyPairFunction(function), to: NonisolatedPairFunction<First, Second>.self).function
        return AssumedIsolation<(First, Second)>(isolation: function.isolation) { pair in plain(pair.0, pair.1) }
    }

    /// Keeps a function of any number of arguments, called with them as a tuple.
    @inlinable
    package static func pack<each Value>(
        _ function: @escaping @isolated(any) @Sendable (repeat each Value) -> Void
    ) -> AssumedIsolation<(repeat each Value)> {
        // A variadic function type cannot be cast directly; in a struct it has one representation.
        let plain = unsafeBitCast(IsolatedAnyPackFunction(function), to: NonisolatedPackFunction<repeat each Value>.self).function
        return AssumedIsolation<(repeat each Value)>(isolation: function.isolation) { values in plain(repeat each values) }
    }

    /// A function made of one that was kept here: `function` calls
    /// ``callAssumingIsolation(_:)`` of an ``AssumedIsolation`` whose isolation is `isolation`.
    @inlinable
    package init(isolation: (any Actor)?, function: @escaping @Sendable (Argument) -> Void) {
        self.isolation = isolation
        self.function = function
    }
}

@usableFromInline
struct IsolatedAnyPairFunction<First, Second> {
    @usableFromInline let function: @isolated(any) @Sendable (First, Second) -> Void
    @inlinable init(_ function: @escaping @isolated(any) @Sendable (First, Second) -> Void) { self.function = function }
}

@usableFromInline
struct NonisolatedPairFunction<First, Second> {
    @usableFromInline let function: @Sendable (First, Second) -> Void
}

@usableFromInline
struct IsolatedAnyPackFunction<each Value> {
    @usableFromInline let function: @isolated(any) @Sendable (repeat each Value) -> Void
    @inlinable init(_ function: @escaping @isolated(any) @Sendable (repeat each Value) -> Void) { self.function = function }
}

@usableFromInline
struct NonisolatedPackFunction<each Value> {
    @usableFromInline let function: @Sendable (repeat each Value) -> Void
}

/// A function that returns a value and may throw (a navigator's `make:`), kept for synchronous
/// calls where its isolation holds; see ``AssumedIsolation``.
@frozen
@usableFromInline
package struct AssumedIsolationThrowing<Argument, Result>: @unchecked Sendable {  // Immutable.
    @usableFromInline package let isolation: (any Actor)?
    @usableFromInline let function: @Sendable (Argument) throws -> Result

    @inlinable
    package init(_ function: @escaping @isolated(any) @Sendable (Argument) throws -> Result) {
        isolation = function.isolation
        self.function =
            unsafeBitCast(
                IsolatedAnyThrowingFunction(function), to: NonisolatedThrowingFunction<Argument, Result>.self
            ).function
    }

    /// A function made of one that was kept here: `function` calls
    /// ``callAssumingIsolation(_:)`` of an ``AssumedIsolationThrowing`` whose isolation is
    /// `isolation`.
    @inlinable
    package init(isolation: (any Actor)?, function: @escaping @Sendable (Argument) throws -> Result) {
        self.isolation = isolation
        self.function = function
    }

    /// Calls the function; see ``AssumedIsolation/callAssumingIsolation(_:)``.
    @inlinable
    package func callAssumingIsolation(_ argument: Argument) throws -> Result {
        #if DEBUG
        if let isolation { AssumedIsolation<Void>.confirm(isolation) }
        #endif
        return try function(argument)
    }
}

@usableFromInline
struct IsolatedAnyThrowingFunction<Argument, Result> {
    @usableFromInline let function: @isolated(any) @Sendable (Argument) throws -> Result
    @inlinable init(_ function: @escaping @isolated(any) @Sendable (Argument) throws -> Result) { self.function = function }
}

@usableFromInline
struct NonisolatedThrowingFunction<Argument, Result> {
    @usableFromInline let function: @Sendable (Argument) throws -> Result
}

/// A function that returns a value (an operator's transform or predicate), kept for synchronous
/// calls where its isolation holds; see ``AssumedIsolation``.
@frozen
@usableFromInline
package struct AssumedIsolationReturning<Argument, Result>: @unchecked Sendable {  // Immutable.
    @usableFromInline package let isolation: (any Actor)?
    @usableFromInline let function: @Sendable (Argument) -> Result

    @inlinable
    package init(_ function: @escaping @isolated(any) @Sendable (Argument) -> Result) {
        isolation = function.isolation
        self.function =
            unsafeBitCast(
                IsolatedAnyReturningFunction(function), to: NonisolatedReturningFunction<Argument, Result>.self
            ).function
    }

    /// A function made of one that was kept here: `function` calls
    /// ``callAssumingIsolation(_:)`` of an ``AssumedIsolationReturning`` whose isolation is
    /// `isolation`, or is nonisolated.
    @inlinable
    package init(isolation: (any Actor)?, function: @escaping @Sendable (Argument) -> Result) {
        self.isolation = isolation
        self.function = function
    }

    /// Calls the function; see ``AssumedIsolation/callAssumingIsolation(_:)``.
    @inlinable
    package func callAssumingIsolation(_ argument: Argument) -> Result {
        #if DEBUG
        if let isolation { AssumedIsolation<Void>.confirm(isolation) }
        #endif
        return function(argument)
    }

    /// The function as a plain one, to call on any thread.
    ///
    /// - Precondition: The function is nonisolated.
    @inlinable
    package var nonisolatedFunction: @Sendable (Argument) -> Result {
        precondition(isolation == nil, "Compose: an isolated function taken as a nonisolated one")
        return function
    }
}

@usableFromInline
struct IsolatedAnyReturningFunction<Argument, Result> {
    @usableFromInline let function: @isolated(any) @Sendable (Argument) -> Result
    @inlinable init(_ function: @escaping @isolated(any) @Sendable (Argument) -> Result) { self.function = function }
}

@usableFromInline
struct NonisolatedReturningFunction<Argument, Result> {
    @usableFromInline let function: @Sendable (Argument) -> Result
}

extension AssumedIsolationReturning {
    /// Keeps a function of two arguments (a `scan`'s accumulation), called with them as a pair.
    @inlinable
    package static func pair<First, Second>(
        _ function: @escaping @isolated(any) @Sendable (First, Second) -> Result
    ) -> AssumedIsolationReturning<(First, Second), Result> {
        let plain =
            unsafeBitCast(
                IsolatedAnyPairReturningFunction(function), to: NonisolatedPairReturningFunction<First, Second, Result>.self
            ).function
        return AssumedIsolationReturning<(First, Second), Result>(isolation: function.isolation) { pair in
            plain(pair.0, pair.1)
        }
    }
}

@usableFromInline
struct IsolatedAnyPairReturningFunction<First, Second, Result> {
    @usableFromInline let function: @isolated(any) @Sendable (First, Second) -> Result
    @inlinable init(_ function: @escaping @isolated(any) @Sendable (First, Second) -> Result) { self.function = function }
}

@usableFromInline
struct NonisolatedPairReturningFunction<First, Second, Result> {
    @usableFromInline let function: @Sendable (First, Second) -> Result
}
