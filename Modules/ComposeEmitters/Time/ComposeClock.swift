import ComposeMachinery

/// A clock of any kind, behind one type: what components, time-based operators and autosave
/// read time from when they are not given a clock.
///
/// A type-erased `Clock<Duration>`, so it can be stored (`any Clock<Duration>` cannot be
/// passed where a `Clock` is expected) and handed to every time-based operator:
///
/// ```swift
/// struct SearchComponent: Component {
///     let query = ValueEmitter<String>()
///     let clock = services.clock             // a ComposeClock
///
///     var observers: Void {
///         query.debounce(interval: .milliseconds(300), clock: clock) += { search($0) }
///     }
/// }
/// ```
///
/// ## The current clock
/// ``current`` is the clock that code running now should use: the clock set for the current
/// task with ``withCurrent(_:operation:)-(_,()->Result)`` (`Services.withOverrides` and
/// ComposeTesting's sandbox set it), and the continuous clock otherwise. `debounce(interval:)`,
/// `throttle(interval:)`, `delay(interval:)`, `Emitters.Timer(interval:)` and
/// `Autosave.coalescing(window:)` read it when they are created, so a test that sets a
/// `TestClock` drives all of them.
///
/// ## Instants
/// An instant of a `ComposeClock` is a duration since the moment the clock was wrapped, read on
/// the wrapped clock; instants of two `ComposeClock`s are not comparable with each other.
public struct ComposeClock: Clock, Sendable {
    /// A point in time of a ``ComposeClock``: the duration since the clock was wrapped.
    public struct Instant: InstantProtocol, Sendable {
        /// The time since the clock was wrapped.
        public let offset: Duration

        /// The instant `offset` after the clock was wrapped.
        public init(offset: Duration) {
            self.offset = offset
        }

        /// The instant `duration` later.
        public func advanced(by duration: Duration) -> Instant {
            Instant(offset: offset + duration)
        }

        /// The time from this instant to `other` (negative when `other` is earlier).
        public func duration(to other: Instant) -> Duration {
            other.offset - offset
        }

        public static func < (lhs: Instant, rhs: Instant) -> Bool {
            lhs.offset < rhs.offset
        }
    }

    private let box: any ClockBox

    /// Wraps `clock`.
    public init<C: Clock>(_ clock: C) where C.Duration == Duration {
        if let already = clock as? ComposeClock {
            box = already.box
        } else {
            box = Box(clock: clock, origin: clock.now)
        }
    }

    /// The continuous clock, wrapped.
    public static var continuous: ComposeClock {
        ComposeClock(ContinuousClock())
    }

    /// The wrapped clock's current time, as the time since it was wrapped.
    public var now: Instant {
        Instant(offset: box.elapsed)
    }

    /// The wrapped clock's minimum resolution.
    public var minimumResolution: Duration {
        box.minimumResolution
    }

    /// Sleeps on the wrapped clock until `deadline`, or throws `CancellationError` when the task
    /// is cancelled first.
    public func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        try await box.sleep(untilOffset: deadline.offset, tolerance: tolerance)
    }

    /// The wrapped clock, for tests that need it back.
    public var base: any Clock<Duration> {
        box.base
    }

    // MARK: The current clock

    @TaskLocal
    static var ambient: ComposeClock?

    /// The clock code running now should use: the one set for the current task, or the
    /// continuous clock.
    public static var current: ComposeClock {
        ambient ?? .continuous
    }

    /// Runs `operation` with `clock` as ``current`` (and in the tasks it starts).
    @discardableResult
    public static func withCurrent<Result>(_ clock: ComposeClock, operation: () throws -> Result) rethrows -> Result {
        try $ambient.withValue(clock, operation: operation)
    }

    /// Runs the asynchronous `operation` with `clock` as ``current``.
    @discardableResult
    public static func withCurrent<Result>(
        _ clock: ComposeClock,
        isolation: isolated (any Actor)? = #isolation,
        operation: () async throws -> Result
    ) async rethrows -> Result {
        try await $ambient.withValue(clock, operation: operation, isolation: isolation)
    }
}

/// The wrapped clock, with its instant type hidden.
private protocol ClockBox: Sendable {
    var elapsed: Duration { get }
    var minimumResolution: Duration { get }
    var base: any Clock<Duration> { get }
    func sleep(untilOffset offset: Duration, tolerance: Duration?) async throws
}

private struct Box<C: Clock>: ClockBox where C.Duration == Duration {
    let clock: C
    let origin: C.Instant

    var elapsed: Duration {
        origin.duration(to: clock.now)
    }

    var minimumResolution: Duration {
        clock.minimumResolution
    }

    var base: any Clock<Duration> {
        clock
    }

    func sleep(untilOffset offset: Duration, tolerance: Duration?) async throws {
        try await clock.sleep(until: origin.advanced(by: offset), tolerance: tolerance)
    }
}
