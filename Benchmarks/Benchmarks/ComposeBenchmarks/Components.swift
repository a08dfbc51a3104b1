import Benchmark
import Compose

/// Component scenarios: push and pop on a router whose stack is 1 or 1,000 deep, and mounting
/// a tree of 1,000 or 10,000 components.
func componentBenchmarks() {
    for depth in [1, 1_000] {
        navigation(atDepth: depth)
    }
    for count in [1_000, 10_000] {
        binding(count)
    }
}

/// A screen of a router: an instance per level of the stack.
struct StackScreen: Component {
    let tap = SignalEmitter()
    var observers: Void {
        tap += {}
    }
}

/// A router component with `depth - 1` instances pushed on top of its start route, and one
/// more child to push and pop.
struct StackOwner: RouterComponent {
    let start = StackScreen()
    let extra = StackScreen()
    let screens = InstanceComponent<StackScreen>()
    let router = Router(start: \Self.start)
    var observers: Void { None }
}

private func navigation(atDepth depth: Int) {
    let host = ComponentHost(StackOwner())
    for _ in 1..<depth {
        host.root.router.push(\StackOwner.screens, instance: host.root.screens.create(StackScreen()), animated: false)
    }
    precondition(host.root.router.depth == depth)
    let pairs = 1_000
    Benchmark(
        "Components/push+pop at depth \(depth)/Compose",
        configuration: scenario(ops: pairs * 2, unit: "navigations")
    ) { _ in
        for _ in 0..<pairs {
            host.root.router.push(\StackOwner.extra, animated: false)
            host.root.router.pop(animated: false)
        }
        precondition(host.root.router.depth == depth)
    }
}

/// A node of a tree: a screen's worth of emitter and observer, and children created as
/// instances.
struct TreeNode: Component {
    let tap = SignalEmitter()
    let children = InstanceComponent<TreeNode>()
    var observers: Void {
        tap += {}
    }
}

/// A tree of `count` nodes, ten children per node.
private func makeTree(_ count: Int) -> TreeNode {
    let root = TreeNode()
    var level = [root]
    var made = 1
    while made < count {
        var next: [TreeNode] = []
        for parent in level {
            for _ in 0..<10 where made < count {
                let child = TreeNode()
                parent.children.create(child)
                next.append(child)
                made += 1
            }
        }
        level = next
    }
    return root
}

private func binding(_ count: Int) {
    Benchmark(
        "Components/mount a tree of \(count)/Compose",
        configuration: scenario(ops: count, unit: "components")
    ) { benchmark in
        // Unmounting destroys the created components: build the tree anew, unmeasured.
        let tree = makeTree(count)
        benchmark.startMeasurement()
        let host = ComponentHost(tree)
        benchmark.stopMeasurement()
        precondition(host.nodes.count == count)
        host.unmount()
    }
    // Not a peer: a floor. What any host does for each component, alone: one object per
    // component, linked to its parent's, and a table from the component's identity to it (which
    // a host needs to find a component's node), for the same tree, visited in the same order.
    // How much of the cost of 10,000 components against 1,000 the machine's caches add to any
    // host.
    Benchmark(
        "Components/mount a tree of \(count)/floor: a node per component, in a table by identity",
        configuration: scenario(ops: count, unit: "components")
    ) { benchmark in
        let order = FloorNode.visitOrder(makeTree(count))
        benchmark.startMeasurement()
        let nodes = FloorNode.mount(order)
        benchmark.stopMeasurement()
        precondition(nodes.count == count)
    }
}

/// The floor's node: its component, its parent and its children.
private final class FloorNode {
    let component: TreeNode
    weak var parent: FloorNode?
    var children: [FloorNode] = []

    init(_ component: TreeNode, parent: FloorNode?) {
        self.component = component
        self.parent = parent
    }

    /// The components of `root`'s tree, parents first, each with its parent's position.
    static func visitOrder(_ root: TreeNode) -> [(component: TreeNode, parent: Int?)] {
        var order: [(component: TreeNode, parent: Int?)] = []
        func visit(_ component: TreeNode, parent: Int?) {
            order.append((component, parent))
            let position = order.count - 1
            for id in component.children.ids {
                visit(component.children.instance(for: id)!, parent: position)
            }
        }
        visit(root, parent: nil)
        return order
    }

    /// A node for every component, in a table by the component's identity.
    static func mount(_ order: [(component: TreeNode, parent: Int?)]) -> [ObjectIdentifier: FloorNode] {
        var table: [ObjectIdentifier: FloorNode] = [:]
        var made: [FloorNode] = []
        for (component, parent) in order {
            let parentNode = parent.map { made[$0] }
            let node = FloorNode(component, parent: parentNode)
            parentNode?.children.append(node)
            table[ObjectIdentifier(component.tap)] = node
            made.append(node)
        }
        return table
    }
}
