/// The pure logic of ``ScopedDirectory``: writes are let in while the scope is open, and refused
/// once it is closing; closing waits for the writes already in.
struct ScopedDirectoryStateMachine: Equatable {
    enum State: Equatable {
        case open(writers: Int)
        /// Closed to new writes; waiting for `writers` to finish.
        case closing(writers: Int)
        /// No write will ever touch the directory again.
        case closed
    }

    enum EnterAction: Equatable {
        /// Write, then call ``leave()``.
        case write
        /// Refuse the write: the scope has ended.
        case refuse
    }

    enum LeaveAction: Equatable {
        case none
        /// The last write a close waits for is done: wake it.
        case wakeTheCloser
    }

    enum CloseAction: Equatable {
        /// Nobody writes: remove the directory now.
        case remove
        /// Wait until ``isClosed``, then remove the directory.
        case waitForWriters
        /// Closed before: nothing to do.
        case none
    }

    private(set) var state = State.open(writers: 0)

    var isClosed: Bool {
        state == .closed
    }

    mutating func enter() -> EnterAction {
        guard case .open(let writers) = state else { return .refuse }
        state = .open(writers: writers + 1)
        return .write
    }

    mutating func leave() -> LeaveAction {
        switch state {
        case .open(let writers):
            precondition(writers > 0, "ScopedDirectory: a write left that never entered")
            state = .open(writers: writers - 1)
            return .none
        case .closing(let writers):
            precondition(writers > 0, "ScopedDirectory: a write left that never entered")
            state = writers == 1 ? .closed : .closing(writers: writers - 1)
            return writers == 1 ? .wakeTheCloser : .none
        case .closed:
            preconditionFailure("ScopedDirectory: a write left after the directory closed")
        }
    }

    mutating func close() -> CloseAction {
        switch state {
        case .open(let writers) where writers == 0:
            state = .closed
            return .remove
        case .open(let writers):
            state = .closing(writers: writers)
            return .waitForWriters
        case .closing:
            return .waitForWriters
        case .closed:
            return .none
        }
    }
}
