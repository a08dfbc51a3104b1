import ComposeMachinery

extension SessionRecorder {
    /// Returns what `body` returns, recorded under `name` by the recorders of the current world;
    /// while a replay runs, returns the result recorded under `name` instead, without calling
    /// `body`.
    ///
    /// A service wraps what comes from outside the app (a network call, a file, the date) so that
    /// a replay gets what the user got:
    ///
    /// ```swift
    /// func search(_ query: String) async throws -> [Book] {
    ///     try await SessionRecorder.result(named: "books.search") { try await api.search(query) }
    /// }
    /// ```
    ///
    /// Results of one name replay in the order they were recorded. A call that threw is recorded
    /// with the error's description and replays by throwing ``RecordedError``.
    ///
    /// - Throws: What `body` throws; in a replay, ``RecordedError`` for a recorded error, and
    ///   ``MissingResult`` when the recording has no result left under `name`.
    public static func result<Value: Codable & Sendable>(named name: String, _ body: () throws -> Value) throws -> Value {
        let taps = SessionTaps.current
        if let replayed = try taps.replayed(name, as: Value.self) { return replayed }
        do {
            let value = try body()
            taps.record(name, value)
            return value
        } catch {
            taps.record(name, failure: error)
            throw error
        }
    }

    /// Returns what the asynchronous `body` returns, recorded under `name`; see
    /// ``result(named:_:)-(_,()->Value)``.
    public static func result<Value: Codable & Sendable>(
        named name: String,
        isolation: isolated (any Actor)? = #isolation,
        _ body: () async throws -> Value
    ) async throws -> Value {
        let taps = SessionTaps.current
        if let replayed = try taps.replayed(name, as: Value.self) { return replayed }
        do {
            let value = try await body()
            taps.record(name, value)
            return value
        } catch {
            taps.record(name, failure: error)
            throw error
        }
    }

    /// A recorded call that threw, thrown again by a replay.
    public struct RecordedError: Error, Sendable, Equatable, CustomStringConvertible {
        /// The result's name.
        public let name: String
        /// The description of the error the call threw when it was recorded.
        public let description: String
    }

    /// A replay asked for a result that the recording does not have (the app now makes a call it
    /// did not make then).
    public struct MissingResult: Error, Sendable, Equatable, CustomStringConvertible {
        /// The result's name.
        public let name: String

        public var description: String {
            "The recording has no result left named \(name.debugDescription): the app now asks for one it did not then"
        }
    }
}

/// What supplies service results during a replay (ComposeTesting's `SessionReplay`).
package protocol SessionResultSource: AnyObject, Sendable {
    /// The next result recorded under `name`, or `nil` if none is left (reported by the source).
    func nextResult(named name: String) -> SessionRecording.ServiceResult?
    /// A value the test gives for results named `name` that cannot be decoded (they hold
    /// redacted fields), if any.
    func substitute(forResult name: String) -> Any?
    /// Reports a result that cannot be replayed.
    func report(_ problem: String)
}

/// The recorders of a world and its replay, if any: where service results go, and come from.
package final class SessionTaps: Sendable {
    private struct Taps {
        var recorders: [WeakBox<SessionRecorder>] = []
        weak var source: (any SessionResultSource)?
    }

    private let taps = LockedState(Taps())

    /// The current world's.
    package static var current: SessionTaps {
        ComposeWorld.current.value(for: ObjectIdentifier(SessionTaps.self)) { SessionTaps() }
    }

    func add(_ recorder: SessionRecorder) {
        taps.withLock { $0.recorders.append(WeakBox(recorder)) }
    }

    func remove(_ recorder: SessionRecorder) {
        let identity = ObjectIdentifier(recorder)
        taps.withLock { $0.recorders.removeAll { $0.identity == identity || $0.object == nil } }
    }

    /// Makes `source` supply this world's results until `body` returns.
    package func replaying<Result>(
        from source: any SessionResultSource,
        isolation: isolated (any Actor)? = #isolation,
        _ body: () async throws -> Result
    ) async rethrows -> Result {
        taps.withLock { $0.source = source }
        defer { taps.withLock { $0.source = nil } }
        return try await body()
    }

    func replayed<Value: Decodable>(_ name: String, as _: Value.Type) throws -> Value? {
        guard let source = taps.withLock({ $0.source }) else { return nil }
        guard let result = source.nextResult(named: name) else { throw SessionRecorder.MissingResult(name: name) }
        guard let value = result.value else {
            throw SessionRecorder.RecordedError(name: name, description: result.error ?? "an error")
        }
        do {
            return try value.decode(as: Value.self)
        } catch {
            if let substitute = source.substitute(forResult: name) as? Value { return substitute }
            source.report(
                "the recorded result \(name.debugDescription) does not decode (\(error)); if it holds redacted fields, pass a value in `substitutes` under \(name.debugDescription)"
            )
            throw error
        }
    }

    private var recorders: [SessionRecorder] {
        taps.withLock { $0.recorders.compactMap(\.object) }
    }

    func record(_ name: String, _ value: some Encodable) {
        let recorders = self.recorders
        guard !recorders.isEmpty else { return }
        let result: SessionRecording.ServiceResult
        do {
            result = .init(name: name, value: try SessionValue(encoding: value))
        } catch {
            result = .init(name: name, value: nil, error: "not encoded: \(error)")
        }
        for recorder in recorders { recorder.record(result) }
    }

    func record(_ name: String, failure: any Error) {
        let result = SessionRecording.ServiceResult(name: name, value: nil, error: "\(failure)")
        for recorder in recorders { recorder.record(result) }
    }
}
