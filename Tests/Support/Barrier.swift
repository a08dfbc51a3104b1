import Foundation

/// Releases its parties together: each thread that arrives waits until all have, so a race
/// starts with every contender at the line. Reusable: once all have arrived, the next round
/// begins. Blocks the thread: use it on threads of their own (``onThreads(_:_:)``), never on the
/// cooperative pool.
public final class Barrier: @unchecked Sendable {  // State under `condition`'s lock.
    private let condition = NSCondition()
    private let parties: Int
    private var arrived = 0
    private var round = 0

    public init(parties: Int) {
        self.parties = parties
    }

    public func arriveAndWait() {
        condition.lock()
        defer { condition.unlock() }
        let myRound = round
        arrived += 1
        if arrived == parties {
            arrived = 0
            round += 1
            condition.broadcast()
            return
        }
        while round == myRound { condition.wait() }
    }
}
