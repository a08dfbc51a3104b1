/// State that belongs to one subscription's handler, such as `undup`'s last value.
///
/// It needs no lock: an emitter never calls a handler concurrently with itself (see ``Emitter``),
/// and the emitter's lock orders one call before the next, so each call sees what the previous
/// one wrote. Only touch it from inside that handler.
@usableFromInline
package final class HandlerState<State>: @unchecked Sendable {
    /// Touched only by one handler, never concurrently (see above): the dynamic exclusivity
    /// check would only cost time.
    @exclusivity(unchecked) @usableFromInline
    package var value: State

    @inlinable
    package init(_ value: State) {
        self.value = value
    }
}
