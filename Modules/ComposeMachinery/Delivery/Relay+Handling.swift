import DequeModule
import Synchronization

extension Relay {
    /// Records the current thread as the holder of the role, which it just took.
    @inlinable
    func becomeHolder() {
        holderThread.store(ThreadIdentity.current, ordering: .relaxed)
    }

    /// Calls the handler with `event`, without any lock.
    @inlinable
    func handle(_ event: Event, with handler: Handler) {
        handler.handle(event)
    }

    /// Called by the holder of the role with nothing in hand: handles the queue, a batch at a
    /// time, then gives the role up. Finding the relay stopped, it drops what waits, releases the
    /// handler and wakes whoever waits in ``stop()``.
    ///
    /// The common case, nothing sent meanwhile, is one compare-and-exchange from "delivering,
    /// nothing waits" to idle, without loading the word first.
    @inlinable
    func finishHolding() {
        holderThread.store(0, ordering: .relaxed)
        if delivery.giveUpIfNothingWaits() { return }
        handleBacklogAndFinish()
    }

    /// ``finishHolding()`` when events may wait, or the relay was stopped. Kept out of line: it is
    /// the uncommon path.
    @inlinable @inline(never)
    func handleBacklogAndFinish() {
        while true {
            switch delivery.apply(DeliveryStateMachine.finish) {
            case .takeNext:
                becomeHolder()
                queue.withLock { queue in
                    swap(&queue, &inHand)
                    delivery.apply { DeliveryStateMachine.tookAll(&$0, count: inHand.count) }
                }
                while let event = inHand.popFirst() {
                    // Looked at before every event: a stop made meanwhile by another thread waits
                    // for this one to see it, and nothing is called once it has.
                    guard !delivery.state.isStopped, let handler else {
                        inHand.removeAll(keepingCapacity: true)
                        break
                    }
                    handle(event, with: handler)
                }
                holderThread.store(0, ordering: .relaxed)
            case .stopped:
                let dropped = queue.withLock { takeEverything(&$0) }
                _ = dropped  // released outside the lock: a deinit is user code
                RelayStops.wakeEveryone()
                return
            default:
                return  // idle
            }
        }
    }
}
