import ComposeEmitters
import ComposeStore

// What a session needs of the stores and emitters it finds in a tree, whatever their types.

/// A store, as a checkpoint reads it.
package protocol SessionStore {
    /// The state, encoded with `Codable` if it is `Encodable`, else described.
    var sessionState: SessionRecording.StoreState { get }
    /// The subject of its events in the event log.
    var logSubject: ObjectIdentifier { get }
}

/// A store whose state decodes: a replay can set it to a recorded state.
package protocol SessionRestorableStore {
    /// Replaces the state with `value`, decoded as a replay decodes; a ``Redacted`` field keeps
    /// its value.
    func restore(from value: SessionValue) throws
}

extension Store: SessionStore {
    package var logSubject: ObjectIdentifier {
        ObjectIdentifier(storage)
    }

    package var sessionState: SessionRecording.StoreState {
        SessionRecording.StoreState(of: state)
    }
}

extension SessionRecording.StoreState {
    /// Whether a `"<redacted>"` is anywhere in the encoded state.
    var holdsRedactedValues: Bool {
        guard case .value(let value) = self else { return false }
        return value.holdsRedactedValues
    }

    /// `state` as a checkpoint holds it: encoded if it is `Encodable`, else described.
    package init(of state: Any) {
        guard let encodable = state as? any Encodable else {
            self = .description(String(describing: state))
            return
        }
        do {
            self = .value(try SessionValue(encoding: encodable))
        } catch {
            self = .description("\(state) (not encoded: \(error))")
        }
    }
}

extension Store: SessionRestorableStore where State: Decodable {
    /// A ``Redacted`` field keeps the value it has now: the recording does not have it.
    package func restore(from value: SessionValue) throws {
        let now = state
        let filled = (now as? any Encodable).flatMap { try? SessionValue(encoding: $0, redacting: false) }.map(
            value.fillingRedacted(from:))
        state = try (filled ?? value).decode(as: State.self)
    }
}

/// An emitter, as a recording finds it.
package protocol SessionEmitter: AnyObject, Sendable {
    /// The subject of its sends in the event log.
    var logSubject: ObjectIdentifier { get }
    /// Its label, if any.
    var label: String? { get }
    /// Whether its values are redacted.
    var isRedacted: Bool { get }
    /// Whether it is a `SignalEmitter` (its sends carry no value).
    var isSignal: Bool { get }
}

extension SignalEmitter: SessionEmitter {
    package var isRedacted: Bool { false }
    package var isSignal: Bool { true }
}

extension ValueEmitter: SessionEmitter {
    package var isSignal: Bool { false }
}

/// An emitter whose values decode: a replay can send a recorded value on it.
package protocol SessionReplayableEmitter {
    /// Sends `value`, decoded as `Value`.
    func send(decoding value: SessionValue) throws
}

/// A value emitter: a replay can send a value given in place of a redacted one.
package protocol SessionSubstitutableEmitter {
    /// Sends `value` if it is a `Value`; returns whether it was.
    func send(substitute value: Any) -> Bool
}

extension ValueEmitter: SessionReplayableEmitter where Value: Decodable {
    package func send(decoding value: SessionValue) throws {
        send(try value.decode(as: Value.self))
    }
}

extension ValueEmitter: SessionSubstitutableEmitter {
    package func send(substitute value: Any) -> Bool {
        guard let value = value as? Value else { return false }
        send(value)
        return true
    }
}
