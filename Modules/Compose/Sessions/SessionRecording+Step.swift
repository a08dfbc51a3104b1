extension SessionRecording {
    /// One step of a session: an input, the service results that came back while it was the
    /// latest input, and the tree's state once it had taken effect.
    ///
    /// Step 0 has no input: its ``start`` is the tree as the recording found it, and its
    /// checkpoint the whole state just before the first input.
    public struct Step: Sendable, Equatable, Codable {
        /// The step's number, from 0.
        public var number: Int
        /// When the input came, on the host's clock, since the recording started.
        public var time: Duration
        /// What came in; `nil` for step 0.
        public var input: Input?
        /// The results services returned while this was the latest input, in order.
        public var results: [ServiceResult]
        /// What changed in the tree's stores and routers from the previous step's checkpoint to
        /// just before the next input (or the end), the step's effects and the time that passed
        /// included.
        public var checkpoint: Checkpoint
        /// For step 0, the whole state when the recording started (before any time passed): what a
        /// replay sets the stores to first.
        public var start: Checkpoint?

        /// Step `number`, whose `input` came at `time`.
        public init(number: Int, time: Duration, input: Input?, results: [ServiceResult] = [], checkpoint: Checkpoint) {
            self.number = number
            self.time = time
            self.input = input
            self.results = results
            self.checkpoint = checkpoint
        }

        private enum CodingKeys: String, CodingKey {
            case number = "step", time, input, results, checkpoint, start
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            number = try container.decode(Int.self, forKey: .number)
            time = try Duration(recordedSeconds: container.decode(Double.self, forKey: .time), in: container, key: .time)
            input = try container.decodeIfPresent(Input.self, forKey: .input)
            results = try container.decodeIfPresent([ServiceResult].self, forKey: .results) ?? []
            checkpoint = try container.decode(Checkpoint.self, forKey: .checkpoint)
            start = try container.decodeIfPresent(Checkpoint.self, forKey: .start)
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(number, forKey: .number)
            try container.encode(time.recordedSeconds, forKey: .time)
            try container.encodeIfPresent(input, forKey: .input)
            if !results.isEmpty { try container.encode(results, forKey: .results) }
            try container.encode(checkpoint, forKey: .checkpoint)
            try container.encodeIfPresent(start, forKey: .start)
        }
    }

    /// What a service returned, recorded under the name it chose
    /// (``SessionRecorder/result(named:_:)``).
    public struct ServiceResult: Sendable, Equatable, Codable {
        /// The name the service gave it: `"books.search"`.
        public var name: String
        /// The value, encoded; `nil` when the call threw.
        public var value: SessionValue?
        /// The description of the error the call threw.
        public var error: String?

        /// A result named `name`: `value`, or the description of the `error` the call threw.
        public init(name: String, value: SessionValue?, error: String? = nil) {
            self.name = name
            self.value = value
            self.error = error
        }

        private enum CodingKeys: String, CodingKey {
            case name, value, error
        }

        /// Reads a result; `"value":null` is a returned `nil` (``SessionValue/null``).
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            name = try container.decode(String.self, forKey: .name)
            value = container.contains(.value) ? try container.decode(SessionValue.self, forKey: .value) : nil
            error = try container.decodeIfPresent(String.self, forKey: .error)
        }
    }

    /// The state of a tree's stores and routers, or what changed in it since the previous
    /// checkpoint.
    ///
    /// Stores are named by component path and property (`NotesApp/list.state`), routers likewise
    /// (`NotesApp.router`). A router's stack is written as the paths of the components its routes
    /// show, root first.
    public struct Checkpoint: Sendable, Equatable, Codable {
        /// The stores' states, by name.
        public var stores: [String: StoreState]
        /// The routers' stacks, by name.
        public var routers: [String: [String]]
        /// Stores and routers that left the tree (a dynamic component destroyed).
        public var removed: [String]

        /// A checkpoint of `stores` and `routers`, by name, and of the names in `removed`, which left.
        public init(stores: [String: StoreState] = [:], routers: [String: [String]] = [:], removed: [String] = []) {
            self.stores = stores
            self.routers = routers
            self.removed = removed
        }

        /// Whether nothing changed.
        public var isEmpty: Bool {
            stores.isEmpty && routers.isEmpty && removed.isEmpty
        }

        /// This state with `change` applied.
        public func applying(_ change: Checkpoint) -> Checkpoint {
            var result = self
            for name in change.removed {
                result.stores[name] = nil
                result.routers[name] = nil
            }
            result.stores.merge(change.stores) { $1 }
            result.routers.merge(change.routers) { $1 }
            return result
        }

        /// What changed from `previous` to this state.
        public func changes(since previous: Checkpoint) -> Checkpoint {
            Checkpoint(
                stores: stores.filter { previous.stores[$0.key] != $0.value },
                routers: routers.filter { previous.routers[$0.key] != $0.value },
                removed: (Set(previous.stores.keys).subtracting(stores.keys))
                    .union(Set(previous.routers.keys).subtracting(routers.keys)).sorted()
            )
        }

        private enum CodingKeys: String, CodingKey {
            case stores, routers, removed
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            stores = try container.decodeIfPresent([String: StoreState].self, forKey: .stores) ?? [:]
            routers = try container.decodeIfPresent([String: [String]].self, forKey: .routers) ?? [:]
            removed = try container.decodeIfPresent([String].self, forKey: .removed) ?? []
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            if !stores.isEmpty { try container.encode(stores, forKey: .stores) }
            if !routers.isEmpty { try container.encode(routers, forKey: .routers) }
            if !removed.isEmpty { try container.encode(removed, forKey: .removed) }
        }
    }

    /// A store's state in a checkpoint: encoded with `Codable`, or, for a state that is not
    /// `Encodable` (or failed to encode), its description. In the file,
    /// `{"value":...}` or `{"description":"..."}`.
    public enum StoreState: Sendable, Equatable, Codable, CustomStringConvertible {
        /// The state, encoded with `Codable`.
        case value(SessionValue)
        /// The state's description: it is not `Encodable`, or did not encode.
        case description(String)

        private enum CodingKeys: String, CodingKey {
            case value, description
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            if let description = try container.decodeIfPresent(String.self, forKey: .description) {
                self = .description(description)
            } else {
                self = .value(try container.decode(SessionValue.self, forKey: .value))
            }
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            switch self {
            case .value(let value): try container.encode(value, forKey: .value)
            case .description(let description): try container.encode(description, forKey: .description)
            }
        }

        /// Indented JSON, or the description: what a diff compares line by line.
        public var description: String {
            switch self {
            case .value(let value): value.prettyDescription
            case .description(let description): description
            }
        }
    }
}

extension Duration {
    /// The duration in seconds, to the nanosecond, as a recording writes times.
    var recordedSeconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds / 1_000_000_000) / 1e9
    }

    /// The time as a person reads a step's: `1.250 s` (what the replay's messages and
    /// `compose-session` print).
    package var sessionDescription: String {
        let (seconds, attoseconds) = components
        let exact: Double = Double(seconds) * 1000 + Double(attoseconds) / 1e15
        let milliseconds = Int(exact.rounded())
        let fraction: String = String(String(milliseconds % 1000 + 1000).dropFirst())
        return "\(milliseconds / 1000).\(fraction) s"
    }

    /// A time a recording wrote: to the nanosecond it was written with under 2^23 seconds (about
    /// 97 days, where a double's step is under half a nanosecond), to a double's precision past
    /// it (under 2 µs).
    ///
    /// - Throws: `DecodingError` for a time that is negative, not finite, or past what a
    ///   `Duration` of nanoseconds holds (about 292 years). The largest, written as a double,
    ///   rounds up to 2^63 nanoseconds, one past it: it is read as the largest.
    init<Key: CodingKey>(recordedSeconds seconds: Double, in container: KeyedDecodingContainer<Key>, key: Key) throws {
        guard seconds >= 0, (seconds * 1e9).rounded() <= Double(Int64.max) else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: container, debugDescription: "\(seconds) is not a time a recording writes (seconds from 0)")
        }
        // Whole seconds and the fraction apart: the fraction is exact (a double minus its whole
        // part), so the only error left is the half step of the double written, under half a
        // nanosecond below 2^23 s. Scaling the whole double would add its own rounding.
        let whole = seconds.rounded(.down)
        let fraction = Int64(((seconds - whole) * 1e9).rounded())
        let (total, overflow) = Int64(whole).multipliedReportingOverflow(by: 1_000_000_000)
        let (sum, overflowAgain) = total.addingReportingOverflow(fraction)
        self = .nanoseconds(overflow || overflowAgain ? .max : sum)
    }
}
