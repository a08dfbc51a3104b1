/// Whose code is running, for the layers above that need to know: the component host sets it to
/// the component whose `observers` it evaluates, so that `didAppear` and friends read there
/// resolve to that component's node.
///
/// A ``RegistrationContext`` keeps it, so that what an operator runs later on a subscription's
/// behalf (`flatMap`'s transform, and the inner emitter's registration) runs as the code that
/// made the subscription, not as whatever code delivered the value.
package enum CodeOwner {
    /// The owner of the code running on this task, if any.
    @TaskLocal package static var current: (any AnyObject & Sendable)?
}
