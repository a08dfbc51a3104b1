import ComposeEmitters
import ComposeMachinery

/// The component whose `observers` are being evaluated, so that `didAppear` and friends
/// resolve to its node.
enum ComponentContext {
    @TaskLocal static var current: ComponentNode?
}
