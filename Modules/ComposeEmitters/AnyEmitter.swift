/// An emitter of any kind, behind one type: for storing a derived emitter in a property.
///
/// `any Emitter<String>` cannot be used where an `Emitter` is expected (an operator's upstream,
/// a generic parameter); an `AnyEmitter<String>` can:
///
/// ```swift
/// struct SearchComponent: Component {
///     let query = ValueEmitter<String>()
///     let search: AnyEmitter<String>
///
///     init() {
///         search = query.undup().debounce(interval: .milliseconds(300)).eraseToAnyEmitter()
///     }
/// }
/// ```
///
/// It keeps every promise of the emitter it wraps (order, threads, no overlap, cancellation):
/// registering on it registers on that emitter.
public struct AnyEmitter<Value: Sendable>: Emitter {
    @usableFromInline let registerHandler: @Sendable (@escaping @Sendable (Value) -> Void) -> EmitterSubscription

    /// Wraps `emitter`.
    @inlinable
    public init<Wrapped: Emitter>(_ emitter: Wrapped) where Wrapped.Value == Value {
        if let already = emitter as? AnyEmitter<Value> {
            registerHandler = already.registerHandler
        } else {
            registerHandler = { emitter.register($0) }
        }
    }

    @inlinable
    public func register(_ handler: @escaping @Sendable (Value) -> Void) -> EmitterSubscription {
        registerHandler(handler)
    }
}

extension Emitter {
    /// This emitter behind the type ``AnyEmitter``, to be stored in a property.
    @inlinable
    public func eraseToAnyEmitter() -> AnyEmitter<Value> {
        AnyEmitter(self)
    }
}
