import ComposeMachinery

extension Emitters {
    /// Sends a value once the upstream has been quiet for an interval. Returned by
    /// ``Emitter/debounce(interval:)``.
    public struct Debounce<Upstream: Emitter, C: Clock>: Emitter where C.Duration == Duration {
        public typealias Value = Upstream.Value
        typealias Machine = DebounceStateMachine<Value, C.Instant>

        enum Event: Sendable {
            case value(Value)
            case alarm(C.Instant)
        }

        let upstream: Upstream
        let interval: Duration
        let clock: C

        init(upstream: Upstream, interval: Duration, clock: C) {
            precondition(interval >= .zero, "debounce(interval:) needs an interval of zero or more, not \(interval)")
            self.upstream = upstream
            self.interval = interval
            self.clock = clock
        }

        public func register(_ handler: @escaping @Sendable (Value) -> Void) -> EmitterSubscription {
            let clock = self.clock
            let relay = Relay<Event>()
            let alarm = Alarm(clock: clock)
            let machine = HandlerState(Machine(interval: interval))
            let downstream = relay.register { [weak relay] event in
                guard let relay else { return }
                let action: Machine.Action
                switch event {
                case .value(let value): action = machine.value.received(value, at: clock.now)
                case .alarm(let deadline): action = machine.value.alarmFired(for: deadline)
                }
                switch action {
                case .none: break
                case .schedule(let deadline): alarm.schedule(at: deadline) { relay.send(.alarm(deadline)) }
                case .emit(let value): handler(value)
                }
            }
            let upstream = self.upstream.register { relay.send(.value($0)) }
            return EmitterSubscription([downstream, upstream, EmitterSubscription(onCancel: alarm.cancel)])
        }
    }
}

extension Emitter {
    /// Sends the latest value once no new value has arrived for `interval`.
    ///
    /// ```swift
    /// emitter.debounce(interval: .seconds(1)) += { print("Debounced signal received!") }
    /// for _ in 0..<100 { emitter.send() }  // one signal, a second after the last send
    /// ```
    ///
    /// The value is delivered on a task of Swift's concurrency pool. Cancelling the subscription
    /// drops a value that is still waiting.
    ///
    /// - Parameter interval: The quiet time, measured on `ComposeClock.current` (the continuous
    ///   clock unless a test or `Services.withOverrides` set another).
    public func debounce(interval: Duration) -> Emitters.Debounce<Self, ComposeClock> {
        debounce(interval: interval, clock: ComposeClock.current)
    }

    /// Sends the latest value once no new value has arrived for `interval` on `clock`.
    ///
    /// Pass a test clock to drive time by hand in tests.
    public func debounce<C: Clock>(interval: Duration, clock: C) -> Emitters.Debounce<Self, C> {
        Emitters.Debounce(upstream: self, interval: interval, clock: clock)
    }
}
