extension Emitters {
    /// A value emitter whose new subscribers first receive its current value. Returned by
    /// ``ValueEmitter/withCurrent()``.
    public struct WithCurrent<Value: Sendable>: Emitter {
        @usableFromInline let source: ValueEmitter<Value>

        @inlinable
        init(source: ValueEmitter<Value>) {
            self.source = source
        }

        public func register(_ handler: @escaping @Sendable (Value) -> Void) -> EmitterSubscription {
            source.core.register(handler, replayCurrent: true)
        }
    }
}

extension ValueEmitter {
    /// Delivers the current value to each new subscriber right away, then every later value.
    ///
    /// ```swift
    /// emitter.send(100)
    /// emitter.withCurrent() += { value in print(value) }  // prints 100 now, then 5
    /// emitter.send(5)
    /// ```
    ///
    /// The current value is the last one whose delivery started. If the emitter is delivering
    /// when you subscribe, the current value reaches the new handler right after that delivery
    /// and before any value queued behind it, so the handler never sees values out of order.
    /// Nothing is replayed if nothing was sent yet.
    public func withCurrent() -> Emitters.WithCurrent<Value> {
        Emitters.WithCurrent(source: self)
    }
}
