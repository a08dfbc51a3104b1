import ComposeEmitters
import ComposeMachinery

/// The component whose code is running (its `observers`, or what an operator of it runs later on
/// its behalf), so that `didAppear` and friends read there resolve to its node: the
/// ``CodeOwner`` the host sets.
enum ComponentContext {
    static var current: ComponentNode? {
        CodeOwner.current as? ComponentNode
    }

    /// Runs `body` as `node`'s code.
    static func run<Result>(as node: ComponentNode, _ body: () -> Result) -> Result {
        CodeOwner.$current.withValue(node, operation: body)
    }
}
