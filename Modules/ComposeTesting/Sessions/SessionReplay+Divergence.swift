import Compose
import Foundation

extension SessionReplay {
    /// Where a replay first behaved differently from the recording.
    public struct Divergence: Error, Sendable, Equatable, CustomStringConvertible {
        /// The step after which the tree differed (or whose input could not be replayed).
        public let step: Int
        /// That step's input; `nil` for step 0 and for the starting state.
        public let input: SessionRecording.Input?
        /// The step's time, since the recording started.
        public let time: Duration
        /// The stores and routers that differed, by name.
        public let differences: [Difference]
        /// Why the replay could not go on, when it is not a difference of state.
        public let problem: String?

        /// A store or router whose state differed.
        public struct Difference: Sendable, Equatable {
            /// `NotesApp/list.state`, `NotesApp.router`.
            public let name: String
            /// As recorded; `nil` if the recording's tree had no such store or router.
            public let recorded: String?
            /// As replayed; `nil` if the replay's tree has none.
            public let replayed: String?
        }

        public var description: String {
            let what = input.map { " (\($0))" } ?? (step == 0 ? " (the start)" : "")
            var text = "Step \(step)\(what), at \(time.sessionDescription), diverged from the recording"
            if let problem {
                text += ": \(problem)"
            }
            for difference in differences {
                text += "\n\n\(difference.name):"
                switch (difference.recorded, difference.replayed) {
                case (nil, let replayed?):
                    text += " not in the recording; replayed:\n\(replayed)"
                case (let recorded?, nil):
                    text += " not in the replay; recorded:\n\(recorded)"
                case (let recorded?, let replayed?):
                    text +=
                        " "
                        + ComposeTesting.Difference.describe(expected: recorded, actual: replayed)
                        .replacingOccurrences(of: "(−expected, +actual)", with: "(−recorded, +replayed)")
                case (nil, nil):
                    break
                }
            }
            return text
        }
    }

    /// The differences between the recorded and the replayed state.
    static func differences(
        recorded: SessionRecording.Checkpoint, replayed: SessionRecording.Checkpoint
    ) -> [Divergence.Difference] {
        var differences: [Divergence.Difference] = []
        for name in Set(recorded.stores.keys).union(replayed.stores.keys).sorted() {
            let (old, new) = (recorded.stores[name], replayed.stores[name])
            if old != new { differences.append(.init(name: name, recorded: old?.description, replayed: new?.description)) }
        }
        for name in Set(recorded.routers.keys).union(replayed.routers.keys).sorted() {
            let (old, new) = (recorded.routers[name], replayed.routers[name])
            if old != new {
                differences.append(
                    .init(
                        name: name, recorded: old.map { $0.joined(separator: "\n") },
                        replayed: new.map { $0.joined(separator: "\n") }))
            }
        }
        return differences
    }
}
