/// What a thread must do after a transition of ``DeliveryStateMachine``.
@usableFromInline
package enum DeliveryAction: Equatable, Sendable {
    /// Deliver the value in hand (after unlocking): the thread holds the role.
    case deliverNow
    /// Append the value to the queue, under the lock still held; somebody else delivers it.
    case enqueue
    /// Append the value to the queue if there is one in hand, under the lock still held; the
    /// thread holds the role and delivers the queue.
    case drain
    /// Nothing more to do.
    case done
    /// Take the next queued value, under the lock.
    case takeNext
    /// The role was given up.
    case idle
    /// Nothing changed: apply ``DeliveryStateMachine/send(_:)`` under the lock.
    case takeTheLock
    /// Change the handlers in place: nobody reads them.
    case writeInPlace
    /// Change a copy of the handlers, and keep the published ones alive: a delivery may read them.
    case writeACopy
    /// The delivery is stopped: drop the value in hand, without queueing it.
    case discard
    /// Append the value to the queue (it is counted), and send a task to the owner's executor to
    /// deliver it: nobody delivers there, and no task is on its way.
    case schedule
    /// The holder found the delivery stopped and gave the role up: empty the queue (under the
    /// lock), release the handler, and wake whoever waits in ``stop``.
    case stopped
    /// Stopped while nobody held the role: empty the queue (under the lock) and release the
    /// handler. Nobody will deliver again.
    case dropEverything
    /// Stopped while another thread holds the role, and may be calling the handler: wait until it
    /// gives the role up (it then finds the delivery stopped, and calls nothing more).
    case waitForTheHolder
}
