import ComposeMachinery

extension Emitters {
    /// Sends at most one value per interval. Returned by ``Emitter/throttle(interval:latest:)``.
    public struct Throttle<Upstream: Emitter, C: Clock>: Emitter where C.Duration == Duration {
        public typealias Value = Upstream.Value
        typealias Machine = ThrottleStateMachine<Value, C.Instant>

        enum Event: Sendable {
            case value(Value)
            case alarm(C.Instant)
        }

        let upstream: Upstream
        let interval: Duration
        let latest: Bool
        let clock: C

        init(upstream: Upstream, interval: Duration, latest: Bool, clock: C) {
            precondition(interval > .zero, "throttle(interval:) needs a positive interval, not \(interval)")
            self.upstream = upstream
            self.interval = interval
            self.latest = latest
            self.clock = clock
        }

        public func register(_ handler: @escaping @Sendable (Value) -> Void) -> EmitterSubscription {
            let clock = self.clock
            let relay = Relay<Event>()
            let alarm = Alarm(clock: clock)
            let machine = HandlerState(Machine(interval: interval, keepsLatest: latest))
            let downstream = relay.register { [weak relay] event in
                guard let relay else { return }
                let action: Machine.Action
                switch event {
                case .value(let value): action = machine.value.received(value, at: clock.now)
                case .alarm(let deadline): action = machine.value.alarmFired(for: deadline)
                }
                guard case .emit(let value, let windowEnd) = action else { return }
                alarm.schedule(at: windowEnd) { relay.send(.alarm(windowEnd)) }
                handler(value)
            }
            let upstream = self.upstream.register { relay.send(.value($0)) }
            return EmitterSubscription([downstream, upstream, EmitterSubscription(onCancel: alarm.cancel)])
        }
    }
}

extension Emitter {
    /// Sends at most one value per `interval`: the first at once, then the latest (or first)
    /// value of each interval that had any.
    ///
    /// ```swift
    /// scrollOffset.throttle(interval: .milliseconds(100)) += { offset in loadMore(at: offset) }
    /// ```
    ///
    /// - Parameters:
    ///   - interval: The minimum time between two values, on `ComposeClock.current` (the
    ///     continuous clock unless a test or `Services.withOverrides` set another).
    ///   - latest: Whether to keep the latest value of an interval (`true`) or its first.
    public func throttle(interval: Duration, latest: Bool = true) -> Emitters.Throttle<Self, ComposeClock> {
        throttle(interval: interval, latest: latest, clock: ComposeClock.current)
    }

    /// Sends at most one value per `interval` on `clock`.
    public func throttle<C: Clock>(interval: Duration, latest: Bool = true, clock: C) -> Emitters.Throttle<Self, C> {
        Emitters.Throttle(upstream: self, interval: interval, latest: latest, clock: clock)
    }
}
