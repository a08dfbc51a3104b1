import ComposeMachinery
import Synchronization

extension EventLog {
    /// Which kinds of event the observers want: every kind (an observer made with
    /// `observe(_:)`), or the kinds observers made with `observe(only:_:)` named.
    final class Interest: Sendable {
        /// Observers of every kind.
        private let everything = Atomic<Int>(0)
        /// Observers of named kinds, by kind.
        private let named = LockedState<[Event.Kind: Int]>([:])

        func add(_ kinds: Set<Event.Kind>?) {
            guard let kinds else {
                everything.add(1, ordering: .relaxed)
                return
            }
            named.withLock { named in for kind in kinds { named[kind, default: 0] += 1 } }
        }

        func remove(_ kinds: Set<Event.Kind>?) {
            guard let kinds else {
                everything.subtract(1, ordering: .relaxed)
                return
            }
            named.withLock { named in
                for kind in kinds {
                    named[kind, default: 0] -= 1
                    if named[kind] == 0 { named[kind] = nil }
                }
            }
        }

        /// Whether an observer wants events of `kind`.
        ///
        /// - Complexity: One relaxed atomic load while an observer of every kind exists; otherwise
        ///   a lock round trip.
        func wants(_ kind: Event.Kind) -> Bool {
            everything.load(ordering: .relaxed) > 0 || named.withLock { $0[kind] != nil }
        }
    }

    static let interest = Interest()

    /// Whether events of `kind` are recorded now: logging is on and an observer wants them. A type
    /// whose events are costly to describe checks it before describing one.
    ///
    /// - Complexity: One relaxed atomic load while logging is off.
    @inlinable
    public static func isRecording(_ kind: Event.Kind) -> Bool {
        guard isEnabled else { return false }
        return isWanted(kind)
    }

    @usableFromInline
    static func isWanted(_ kind: Event.Kind) -> Bool {
        interest.wants(kind)
    }
}
