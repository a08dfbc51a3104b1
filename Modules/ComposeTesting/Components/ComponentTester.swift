import Compose
import ComposeEmitters
import ComposeMachinery
import ComposeRouting
import Foundation

/// Mounts a component tree headlessly and drives it: events, navigation, visibility, with
/// assertions on what is visible, router stacks and the routing path, and a leak check when
/// it unmounts.
///
/// ```swift
/// let tester = ComponentTester(AuthComponent(), services: { $0.user = .mock })
/// tester.send(tester.root.logIn.openSignUp)
/// tester.expectVisible(["AuthComponent", "AuthComponent/signUp"])
/// tester.expectStack(tester.root.router, [\AuthComponent.signUp])
/// tester.unmount()   // fails if an observer, a component or a ref entry outlives the tree
/// ```
///
/// Every operation runs with the tester's service overrides and clock (tests running in
/// parallel do not see each other's) and turns any Compose `Diagnostic` (a refused navigation, a
/// component observing its parent) reported before it returns into a test failure at the
/// caller's line: handlers it calls at once included (nonisolated ones, and main-actor ones when
/// the test runs on the main actor); a handler that runs on an actor after it returned reports to
/// standard error. The tree's handlers use the tester's services and clock whoever sends (a
/// `StoreTester`, another thread).
/// Other code the test runs itself, outside the tester, sees neither: use
/// ``run(_:fileID:filePath:line:column:)``.
/// A tester does not isolate `@Ref` entities or the event log: run the test in a
/// ``ComposeSandbox`` (`@Suite(.composeSandbox)`) for that.
public final class ComponentTester<Root: Component>: @unchecked Sendable {  // Used from the test's task.
    /// The mounted tree.
    public private(set) var host: ComponentHost<Root>!
    private let services: ServiceStorage
    private let created: TestLocation

    /// Mounts `root`.
    ///
    /// - Parameters:
    ///   - root: The root component of the tree.
    ///   - configure: Replaces services for this tester only: `{ $0.user = .mock }`.
    ///   - clock: The clock of everything the tester runs (its `services.clock`, and
    ///     `ComposeClock.current` for `debounce`, timers and autosave created in its operations):
    ///     a `TestClock` the test advances, say. By default, the clock of the enclosing scope.
    ///   - visibility: `.manual` to drive appear and disappear by hand
    ///     (``appear(_:instance:fileID:filePath:line:column:)``).
    ///   - fileID: Where failures are reported; the caller's file by default.
    ///   - filePath: Where failures are reported; the caller's file by default.
    ///   - line: Where failures are reported; the caller's line by default.
    ///   - column: Where failures are reported; the caller's column by default.
    public init(
        _ root: Root,
        services configure: (inout Services) -> Void = { _ in },
        clock: (any Clock<Duration>)? = nil,
        visibility: ComponentHost<Root>.Visibility = .automatic,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) {
        let location = TestLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        created = location
        services = ServiceStorage(parent: ServiceStorage.scoped)
        var overrides = Services(storage: services)
        if let clock { overrides.clock = ComposeClock(clock) }
        configure(&overrides)
        host = scoped(location) { ComponentHost(root, visibility: visibility) }
    }

    /// The root component.
    public var root: Root {
        host.root
    }

    /// Runs `body` as the tester runs its own operations: with its services, diagnostics
    /// failing the test.
    @discardableResult
    public func run<Result>(
        _ body: () throws -> Result,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) rethrows -> Result {
        try scoped(TestLocation(fileID: fileID, filePath: filePath, line: line, column: column), body)
    }

    private func scoped<Result>(_ location: TestLocation, _ body: () throws -> Result) rethrows -> Result {
        try services.run { try failOnDiagnostics(at: location, body) }
    }

    // MARK: Acting

    /// Sends `emitter`'s signal.
    public func send(
        _ emitter: SignalEmitter,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) {
        scoped(TestLocation(fileID: fileID, filePath: filePath, line: line, column: column)) { emitter.send() }
    }

    /// Sends `value` on `emitter`.
    public func send<Value>(
        _ emitter: ValueEmitter<Value>,
        _ value: Value,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) {
        scoped(TestLocation(fileID: fileID, filePath: filePath, line: line, column: column)) { emitter.send(value) }
    }

    /// Navigates along `link` (a deep link or a path); a link that does not resolve fails
    /// the test with its `DeepLinkError`.
    public func navigate(
        to link: String,
        scheme: String? = nil,
        with navigator: Navigator,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) {
        let location = TestLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        scoped(location) {
            do {
                try host.open(link, scheme: scheme, with: navigator)
            } catch {
                location.fail("Navigating to \(link) failed: \(error)")
            }
        }
    }

    /// Makes the component at `keyPath` appear (`.manual` visibility).
    public func appear<Target: Routable>(
        _ keyPath: KeyPath<Root, Target>, instance: UUID? = nil, fileID: StaticString = #fileID,
        filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) {
        setVisible(
            keyPath, instance: instance, true, at: TestLocation(fileID: fileID, filePath: filePath, line: line, column: column))
    }

    /// Makes the component at `keyPath` disappear (`.manual` visibility).
    public func disappear<Target: Routable>(
        _ keyPath: KeyPath<Root, Target>, instance: UUID? = nil, fileID: StaticString = #fileID,
        filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) {
        setVisible(
            keyPath, instance: instance, false, at: TestLocation(fileID: fileID, filePath: filePath, line: line, column: column))
    }

    private func setVisible<Target: Routable>(
        _ keyPath: KeyPath<Root, Target>, instance: UUID?, _ visible: Bool, at location: TestLocation
    ) {
        guard let node = host.node(keyPath, instance: instance) else {
            location.fail("No mounted component at \(keyPath).")
            return
        }
        scoped(location) { host.setVisible(node, visible) }
    }

    // MARK: Expecting

    /// Fails unless the visible components are exactly `ids`, parents first
    /// (`["AuthComponent", "AuthComponent/logIn"]`).
    public func expectVisible(
        _ ids: [String],
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) {
        let actual = host.visibleIDs
        guard actual != ids else { return }
        TestLocation(fileID: fileID, filePath: filePath, line: line, column: column)
            .fail("The visible components do not match: \(Difference.describe(expected: ids, actual: actual))")
    }

    /// Fails unless the component at `keyPath` is visible (or, with `false`, hidden).
    public func expectVisible<Target: Routable>(
        _ keyPath: KeyPath<Root, Target>,
        instance: UUID? = nil,
        _ visible: Bool = true,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) {
        guard host.isVisible(keyPath, instance: instance) != visible else { return }
        TestLocation(fileID: fileID, filePath: filePath, line: line, column: column)
            .fail("\(keyPath) is \(visible ? "not visible" : "visible"); visible: \(host.visibleIDs)")
    }

    /// Fails unless `router`'s stack is exactly `paths`, root first.
    public func expectStack(
        _ router: Router,
        _ paths: [AnyKeyPath],
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) {
        let actual = router.paths
        guard actual != paths else { return }
        TestLocation(fileID: fileID, filePath: filePath, line: line, column: column)
            .fail(
                "\(router.label)'s stack does not match: \(Difference.describe(expected: paths.map { String(describing: $0) }, actual: actual.map { String(describing: $0) }))"
            )
    }

    /// Fails unless the tree's routing path, read with `navigator`, is `path`
    /// (`"/home/detail?id=0"`).
    public func expectPath(
        _ path: String,
        with navigator: Navigator,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) {
        let location = TestLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        do {
            let actual = try host.routingPath(with: navigator).description
            if actual != path {
                location.fail("The routing path does not match: \(Difference.describe(expected: path, actual: actual))")
            }
        } catch {
            location.fail("The routing path cannot be read: \(error)")
        }
    }

    // MARK: Unmounting

    /// Unmounts the tree, then fails if anything it should have released is still alive:
    /// an observer, a component's node, a component created at run time (its emitters,
    /// stores, routers), or a ref entry only such components referred to.
    ///
    /// Let go of your own references to created components before calling it: those would
    /// keep them alive, and be reported. What a created component shares with a component of the
    /// tree's structure (a parent's store handed to a sheet) is the parent's, and not reported.
    public func unmount(
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) {
        let location = TestLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        let candidates = host.leakCandidates()
        let nodes = candidates.nodes.map { (WeakBox<AnyObject>($0), $0.id) }
        let created = candidates.created.map { (WeakBox<AnyObject>($0), "\(type(of: $0))") }
        let entries = candidates.entries.map { (WeakBox<AnyObject>($0), "\(type(of: $0))") }
        let rootNode = host.rootNode
        _ = consume candidates
        scoped(location) { host.unmount() }
        var leaks: [String] = []
        if let observers = rootNode?.activeObserverCount, observers > 0 {
            leaks.append("\(observers) observer\(observers == 1 ? "" : "s") still active")
        }
        leaks += nodes.filter { $0.0.object != nil && $0.0.object !== rootNode }.map { "the node of \($0.1)" }
        leaks += created.filter { $0.0.object != nil }.map { "a \($0.1) of a created component" }
        leaks += entries.filter { $0.0.object != nil }.map { "a ref entry (\($0.1))" }
        if !leaks.isEmpty {
            location.fail("After unmounting, still alive:\n" + leaks.map { "- \($0)" }.joined(separator: "\n"))
        }
    }
}
