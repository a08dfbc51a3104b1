import Dispatch
import Foundation

/// Runs `body(0)` … `body(count - 1)` on `count` threads of their own, at once, and returns when
/// all have finished.
///
/// Threads rather than tasks: a task that loops without suspending holds one of the cooperative
/// pool's threads (one per core) until it ends, so 8 tasks on 2 cores would run two at a time and
/// stall every other test of the process meanwhile. Threads interleave preemptively, which is
/// what a stress test wants, and leave the pool alone.
public func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) async {
    let group = DispatchGroup()
    for index in 0..<count {
        group.enter()
        startThread {
            body(index)
            group.leave()
        }
    }
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        group.notify(queue: .global()) { continuation.resume() }
    }
}

/// Runs `body` on a thread of its own and returns at once, without waiting for it.
///
/// For a test that keeps the main actor busy while another thread works: a detached task would
/// wait for a thread of the cooperative pool, which the other tests of the process may hold for
/// many seconds.
public func startThread(_ body: @escaping @Sendable () -> Void) {
    let thread = Thread(block: body)
    thread.stackSize = 1 << 20
    thread.start()
}

/// Runs `body` on a thread of its own and returns what it returns, or throws what it throws.
///
/// For a test that blocks (waits for a child process, reads a pipe, spins until a lock is
/// held): blocking in the test's own task holds one of the cooperative pool's threads (one per
/// core), and two such tests at once stall every other test of the process.
public func onAThread<Value: Sendable>(_ body: @escaping @Sendable () throws -> Value) async throws -> Value {
    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Value, any Error>) in
        startThread { continuation.resume(with: Result { try body() }) }
    }
}
