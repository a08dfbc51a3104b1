extension EventLog {
    /// One recorded event.
    public struct Event: Sendable, CustomStringConvertible {
        /// What kind of event this is. Modules add their own kinds as static constants.
        public struct Kind: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
            public let rawValue: String

            public init(rawValue: String) {
                self.rawValue = rawValue
            }

            /// A value or signal was sent on an emitter.
            public static let send = Kind(rawValue: "send")

            public var description: String { rawValue }
        }

        /// What happened.
        public let kind: Kind
        /// Who it happened to: an emitter's label, or its type and identity.
        public let source: String
        /// The value involved: the sent value, or for a mutation its old and new value.
        public let payload: any Sendable
        /// When it happened, on the continuous clock.
        public let time: ContinuousClock.Instant
        /// The position of this event among all recorded events, starting at 1.
        public let sequence: UInt64
        /// What the event happened to, for Compose's own observers: an emitter's core, a router.
        package let subject: ObjectIdentifier?
        /// Whether the event is a consequence of another: recorded while a logged send was being
        /// delivered (by a handler, or a task a handler started), or by a timer; `false` for what
        /// came from outside, such as a tap a view layer sends.
        public let isConsequence: Bool

        package init(
            kind: Kind, source: String, payload: any Sendable, time: ContinuousClock.Instant, sequence: UInt64,
            subject: ObjectIdentifier? = nil, isConsequence: Bool = false
        ) {
            self.kind = kind
            self.source = source
            self.payload = payload
            self.time = time
            self.sequence = sequence
            self.subject = subject
            self.isConsequence = isConsequence
        }

        public var description: String {
            "#\(sequence) \(kind) \(source): \(payload)"
        }
    }
}

extension EventLog {
    /// The payload of a send on a redacted emitter (`ValueEmitter(redacted: true)`): the value
    /// itself never reaches the log.
    public struct RedactedValue: Sendable, Equatable, CustomStringConvertible {
        /// The payload that stands for a redacted value.
        public init() {}

        public var description: String { "<redacted>" }
    }
}
