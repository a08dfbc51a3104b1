import ComposeMachinery

extension Emitters {
    /// Sends the clock's time at a regular interval while subscribed.
    ///
    /// ```swift
    /// Emitters.Timer(interval: .seconds(1)) += { now in print("tick at", now) }
    /// ```
    ///
    /// Each subscription has its own schedule, starting one interval after it subscribes. Ticks
    /// follow the schedule without drift (the *n*th tick is due *n* intervals after the start);
    /// ticks missed while the machine was busy are skipped, not sent in a burst. Ticks are
    /// delivered on a task of Swift's concurrency pool; cancelling the subscription stops them.
    public struct Timer<C: Clock>: Emitter where C.Duration == Duration {
        public typealias Value = C.Instant

        let interval: Duration
        let clock: C

        /// A timer on `clock`.
        ///
        /// - Parameters:
        ///   - interval: The time between ticks; positive.
        ///   - clock: The clock whose time the ticks follow.
        public init(interval: Duration, clock: C) {
            precondition(interval > .zero, "Emitters.Timer needs a positive interval, not \(interval)")
            self.interval = interval
            self.clock = clock
        }

        public func register(_ handler: @escaping @Sendable (Value) -> Void) -> EmitterSubscription {
            let relay = Relay<Value>()
            let downstream = relay.register(handler)
            let clock = self.clock
            let interval = self.interval
            // The schedule starts now, not when the task first runs.
            let first = clock.now.advanced(by: interval)
            let task = ObservationScope.outsideAnyScope {
                Task {
                    var next = first
                    while true {
                        do {
                            try await clock.sleep(until: next, tolerance: nil)
                        } catch {
                            return
                        }
                        // A tick is a consequence of time, not an input (see `EventLog`).
                        EventLog.asConsequence { relay.send(next) }
                        next = Self.tick(after: next, interval: interval, now: clock.now)
                    }
                }
            }
            return EmitterSubscription([downstream, EmitterSubscription(onCancel: task.cancel)])
        }

        /// The tick due after `previous`: the first one on the schedule that is not in the past
        /// at `now`, so ticks missed while the machine was busy are skipped rather than sent in a
        /// burst.
        static func tick(after previous: C.Instant, interval: Duration, now: C.Instant) -> C.Instant {
            let next = previous.advanced(by: interval)
            let behind = next.duration(to: now)
            guard behind > .zero else { return next }
            return next.advanced(by: interval * Int((behind / interval).rounded(.up)))
        }
    }
}

extension Emitters.Timer where C == ComposeClock {
    /// A timer on `ComposeClock.current` (the continuous clock unless a test or
    /// `Services.withOverrides` set another).
    ///
    /// - Parameter interval: The time between ticks; positive.
    public init(interval: Duration) {
        self.init(interval: interval, clock: ComposeClock.current)
    }
}
