/// State that belongs to one subscription's handler, such as `undup`'s last value.
///
/// It needs no lock: an emitter never calls a handler concurrently with itself (see ``Emitter``),
/// and the emitter's lock orders one call before the next, so each call sees what the previous
/// one wrote. Only touch it from inside that handler.
@usableFromInline
final class HandlerState<State>: @unchecked Sendable {
    @usableFromInline
    var value: State

    @inlinable
    init(_ value: State) {
        self.value = value
    }
}
