/// What the handlers subscribed in a scope run inside: a component host gives the handlers of a
/// tree mounted in a service override scope (a test's, a preview's) those services, wherever the
/// value that calls them is sent from.
///
/// A scope's children inherit it. Every handler subscribed while the scope is
/// ``ObservationScope/current`` is called through ``around``, on the thread or actor where it
/// runs; a scope without one calls its handlers directly.
@usableFromInline
package struct HandlerContext: Sendable {
    /// Calls `call`, once, synchronously, with the context in force.
    @usableFromInline package let around: @Sendable (_ call: () -> Void) -> Void

    package init(around: @escaping @Sendable (_ call: () -> Void) -> Void) {
        self.around = around
    }

    /// `body`, called inside the current scope's context if it has one (an operator's own work
    /// on each value, which runs user code).
    @inlinable
    package static func inCurrent<Value>(
        _ body: @escaping @Sendable (Value) -> Void
    ) -> @Sendable (Value) -> Void {
        guard let context = ObservationScope.currentHandlerContext else { return body }
        return { value in context.around { body(value) } }
    }
}
