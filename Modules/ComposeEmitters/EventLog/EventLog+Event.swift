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

        public var description: String {
            "#\(sequence) \(kind) \(source): \(payload)"
        }
    }
}
