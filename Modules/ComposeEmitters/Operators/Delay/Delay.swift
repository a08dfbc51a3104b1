import ComposeMachinery

extension Emitters {
    /// Sends each value an interval after it arrived. Returned by ``Emitter/delay(interval:)``.
    public struct Delay<Upstream: Emitter, C: Clock>: Emitter where C.Duration == Duration {
        public typealias Value = Upstream.Value
        typealias Machine = DelayStateMachine<Value, C.Instant>

        enum Event: Sendable {
            case value(Value)
            case alarm(C.Instant)
        }

        let upstream: Upstream
        let interval: Duration
        let clock: C

        init(upstream: Upstream, interval: Duration, clock: C) {
            precondition(interval >= .zero, "delay(interval:) needs an interval of zero or more, not \(interval)")
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
                case .alarm(let deadline): action = machine.value.alarmFired(for: deadline, at: clock.now)
                }
                if let deadline = action.schedule {
                    alarm.schedule(at: deadline) { relay.send(.alarm(deadline)) }
                }
                // Several values fall due at once: a handler that cancels its subscription
                // (stopping the relay from inside) hears none of the rest.
                for value in action.emit {
                    guard !relay.isStopped else { break }
                    handler(value)
                }
            }
            let upstream = self.upstream.register { relay.send(.value($0)) }
            return EmitterSubscription([downstream, upstream, EmitterSubscription(onCancel: alarm.cancel)])
        }
    }
}

extension Emitter {
    /// Sends each value `interval` after it arrived, in order.
    ///
    /// ```swift
    /// toast.delay(interval: .seconds(3)) += { hideToast() }
    /// ```
    ///
    /// Values are delivered on a task of Swift's concurrency pool. Cancelling the subscription
    /// drops the values still waiting. Time is `ComposeClock.current` (the continuous clock
    /// unless a test or `Services.withOverrides` set another).
    public func delay(interval: Duration) -> Emitters.Delay<Self, ComposeClock> {
        delay(interval: interval, clock: ComposeClock.current)
    }

    /// Sends each value `interval` after it arrived on `clock`, in order.
    public func delay<C: Clock>(interval: Duration, clock: C) -> Emitters.Delay<Self, C> {
        Emitters.Delay(upstream: self, interval: interval, clock: clock)
    }
}
