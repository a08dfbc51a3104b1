// swift-tools-version: 6.2
//
// Compose: the platform-independent core of an event, state, validation, routing, persistence
// and reference architecture for Swift programs.
//
// Modules are declared once, in `modules` below, each with the Compose modules it depends on;
// targets, products and test targets are derived from it. CONTRIBUTING.md's layering table
// repeats those dependencies beside what each module *may* import (the ladder), and
// `Scripts/check-layering` fails CI when a dependency here, an import, or an unused dependency
// breaks it.

import PackageDescription

// MARK: - External packages

/// Only packages that a well-kept library does better than we would; see CONTRIBUTING.md.
let externalPackages: [Package.Dependency] = [
    // Runtime: `Deque` for the emitters' pending deliveries and the stores' queued work.
    .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
    // Tests (and ComposeTesting): a clock that tests advance by hand.
    .package(url: "https://github.com/pointfreeco/swift-clocks", from: "1.1.1"),
    // ComposeTesting: failures reported under XCTest and Swift Testing alike, and readable diffs.
    .package(url: "https://github.com/pointfreeco/xctest-dynamic-overlay", from: "1.13.1"),
    .package(url: "https://github.com/pointfreeco/swift-custom-dump", from: "1.7.3"),
    // The compose-session tool: its command line.
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
]

let deque: Target.Dependency = .product(name: "DequeModule", package: "swift-collections")
let clocks: Target.Dependency = .product(name: "Clocks", package: "swift-clocks")
let issueReporting: Target.Dependency = .product(name: "IssueReporting", package: "xctest-dynamic-overlay")
// Lets IssueReporting record failures in the running test framework; ComposeTesting calls its
// XCTFail directly under XCTest (see CONTRIBUTING.md).
let issueReportingTestSupport: Target.Dependency = .product(name: "IssueReportingTestSupport", package: "xctest-dynamic-overlay")
let customDump: Target.Dependency = .product(name: "CustomDump", package: "swift-custom-dump")

// MARK: - The module table

/// One library module of Compose.
struct Module {
    /// The module's name; its sources live in `Modules/<name>`, its tests in `Tests/<name>Tests`.
    var name: String
    /// The Compose modules this module imports, which are its target dependencies. What it *may*
    /// import (the layering ladder) is CONTRIBUTING.md's table; `Scripts/check-layering` checks
    /// that this list and the module's imports keep to it, and that the table repeats this list.
    var dependsOn: [String]
    /// Dependencies outside this package.
    var external: [Target.Dependency] = []
    /// Whether users depend on the module (a library product of its own). The shared machinery
    /// is not one: it reaches users through the modules built on it.
    var isProduct = true
    /// Extra dependencies of the module's test target.
    var testDependencies: [Target.Dependency] = []
    /// Whether the module has a test target of its own (`Tests/<name>Tests`).
    var hasTests = true
}

let modules: [Module] = [
    // What Swift does not spell (a Swift runtime entry point, the thread id), declared in C and
    // called directly, never looked up at run time: see its header.
    Module(name: "CComposeShims", dependsOn: [], isProduct: false, hasTests: false),
    Module(name: "ComposeMachinery", dependsOn: ["CComposeShims"], external: [deque], isProduct: false),
    Module(name: "ComposeEmitters", dependsOn: ["ComposeMachinery"], external: [deque], testDependencies: [clocks]),
    Module(name: "ComposeValidation", dependsOn: []),
    Module(
        name: "ComposeStore", dependsOn: ["ComposeMachinery", "ComposeEmitters"], external: [deque], testDependencies: [clocks]),
    Module(
        name: "ComposePersistence", dependsOn: ["ComposeMachinery", "ComposeEmitters", "ComposeStore"], testDependencies: [clocks]
    ),
    Module(
        name: "ComposeRefs",
        dependsOn: ["ComposeMachinery", "ComposeStore"],
        testDependencies: [.target(name: "ComposePersistence")]
    ),
    Module(name: "ComposeRouting", dependsOn: ["ComposeMachinery", "ComposeEmitters"]),
    Module(
        name: "Compose",
        dependsOn: [
            "ComposeMachinery", "ComposeEmitters", "ComposeValidation", "ComposeStore", "ComposePersistence", "ComposeRefs",
            "ComposeRouting",
        ],
        testDependencies: [.target(name: "ComposeSoakApp")]
    ),
    // Compiled only where SwiftUI exists (an empty module elsewhere): type-checked here by
    // Scripts/check-swiftui against a SwiftUI stand-in, its behaviour specified by
    // ReferenceAdapterTests.
    Module(name: "ComposeSwiftUI", dependsOn: ["Compose", "ComposeEmitters", "ComposeStore"], hasTests: false),
    Module(
        name: "ComposeTesting",
        dependsOn: [
            "ComposeMachinery", "ComposeEmitters", "ComposeStore", "ComposePersistence", "ComposeRefs", "ComposeRouting",
            "Compose",
        ],
        external: [clocks, issueReporting, issueReportingTestSupport, customDump]
    ),
]

// MARK: - Targets derived from the table

let swiftSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

var targets: [Target] = []
for module in modules {
    targets.append(
        .target(
            name: module.name,
            dependencies: module.dependsOn.map { .target(name: $0) } + module.external,
            path: "Modules/\(module.name)"
        )
    )
    guard module.hasTests else { continue }
    targets.append(
        .testTarget(
            name: "\(module.name)Tests",
            dependencies: [.target(name: module.name), "ComposeTestSupport"] + module.testDependencies,
            path: "Tests/\(module.name)Tests"
        )
    )
}

// Helpers this package's test targets share (not a product; users get ComposeTesting).
targets.append(
    .target(
        name: "ComposeTestSupport",
        dependencies: ["ComposeMachinery", "ComposeEmitters", "ComposeStore", "ComposeTesting", clocks], path: "Tests/Support")
)

// Stress tests: many threads on shared emitters, stores, routers and files, exact counts (run
// under TSan and ASan in CI, on their own).
targets.append(
    .testTarget(
        name: "ComposeStressTests",
        dependencies: [
            "ComposeMachinery", "ComposeEmitters", "ComposeStore", "ComposeRefs", "ComposePersistence", "Compose",
            "ComposeTestSupport",
        ],
        path: "Tests/ComposeStressTests"
    )
)

// A small notes app and its tests, as an app's test target holds them: refs shared between a
// list and a detail, autosave, a debounced search, deep links; every suite in a sandbox. CI
// runs it 20 times in a row, in parallel, and under ThreadSanitizer.
targets.append(
    .testTarget(
        name: "NotesAppTests",
        dependencies: ["Compose", "ComposeTesting"],
        path: "Tests/NotesAppTests",
        // Recorded sessions, read by path (NotesRecordedFileTests) and by Scripts/check-session-tool.
        exclude: ["Sessions"]
    )
)

// The seed's examples as a main-actor app target writes them: built with Swift 6.2's default
// main-actor isolation, as new app targets are, with no `nonisolated` and no `assumeIsolated`;
// its tests pin down which actor every kind of callback runs on.
targets.append(
    .testTarget(
        name: "MainActorAppTests",
        dependencies: ["Compose", "ComposeTesting", "ComposeTestSupport"],
        path: "Tests/MainActorAppTests",
        swiftSettings: [.defaultIsolation(MainActor.self)]
    )
)

// A view layer written on the public API alone (nothing imported `@testable`), driving the
// seed's navigation examples as a screen would: the specification of the SwiftUI layer.
targets.append(
    .testTarget(
        name: "ReferenceAdapterTests",
        dependencies: ["Compose", "ComposeTesting"],
        path: "Tests/ReferenceAdapterTests"
    )
)

// A process that ComposePersistence's crash tests kill in the middle of saving.
targets.append(
    .executableTarget(
        name: "ComposePersistenceCrashChild",
        dependencies: ["ComposePersistence", "ComposeStore", "ComposeTestSupport"],
        path: "Tests/ComposePersistenceCrashChild"
    )
)

// What an executable built with a statically linked Swift runtime must be able to do (subscribe,
// send, cancel, a store observer, a shared `@Ref`, a save and a restore, a main-actor handler):
// Scripts/check-static builds it with `--static-swift-stdlib` and runs it.
targets.append(.executableTarget(name: "ComposeStaticRuntimeCheck", dependencies: ["Compose"], path: "Tests/StaticRuntimeCheck"))

// The soak: the app it drives and the checks (a library, also run briefly by ComposeTests), the
// executable CI runs, and the allocator statistics it reads.
targets.append(.target(name: "HeapStats", path: "Tests/HeapStats"))
targets.append(
    .target(
        name: "ComposeSoakApp",
        dependencies: ["Compose", "ComposePersistence", "ComposeRefs", "ComposeTestSupport", "HeapStats"],
        path: "Tests/Soak/App"
    )
)
targets.append(.executableTarget(name: "ComposeSoak", dependencies: ["ComposeSoakApp"], path: "Tests/Soak/Main"))

// `compose-session`: shows a session recording as text or as a page (a product of its own).
targets.append(
    .executableTarget(
        name: "ComposeSessionTool",
        dependencies: ["Compose", .product(name: "ArgumentParser", package: "swift-argument-parser")],
        path: "Tools/ComposeSession"
    )
)

// Fuzz targets: libFuzzer entry points, built with -sanitize=fuzzer by Scripts/fuzz; built
// normally, each replays the inputs given on its command line.
targets.append(.target(name: "FuzzSupport", path: "Fuzz/Support"))
for (name, dependencies) in [
    ("DeepLink", ["ComposeRouting"]),
    ("Persistence", ["ComposePersistence", "ComposeRefs", "ComposeStore"]),
    ("Session", ["Compose"]),
    ("Validation", ["ComposeValidation"]),
] {
    targets.append(
        .executableTarget(
            name: "Fuzz\(name)",
            dependencies: ["FuzzSupport"] + dependencies.map { .target(name: $0) },
            path: "Fuzz/\(name)",
            exclude: ["corpus"]
        )
    )
}

// The benchmarks are a package of their own (Benchmarks/Package.swift), which depends on this one
// by path: their harness and peers are not dependencies of the library.

for index in targets.indices {
    targets[index].swiftSettings = (targets[index].swiftSettings ?? []) + swiftSettings
}

// MARK: - Code written as a user's package writes it

// Targets that stand for a package depending on Compose: they see its public API alone
// (`packageAccess: false`, no `@testable` import, which Scripts/check-downstream checks) and
// keep SwiftPM's default settings rather than the package's own, as a user's package does. They
// are targets of this package, not packages of their own, so that the debug build the tests use
// builds them too, with no second build of the library.

// A library on ComposeStore alone and its tests on ComposeTesting, under XCTest and Swift
// Testing; Scripts/check-downstream also checks how a failure of theirs is reported.
targets.append(
    .target(name: "DownstreamProfile", dependencies: ["ComposeStore"], path: "Tests/Downstream/Profile", packageAccess: false)
)
targets.append(
    .testTarget(
        name: "DownstreamTests",
        dependencies: ["DownstreamProfile", "ComposeStore", "ComposeEmitters", "ComposeTesting"],
        path: "Tests/Downstream/Tests",
        packageAccess: false
    )
)

// The tutorial's app at the step Scripts/check-tutorial has staged in `COMPOSE_TUTORIAL_APP` (a
// folder of this package, `.build-tutorial/<Tutorial>`, holding the reader's `Sources/` and
// `Tests/`), with the targets its Package.swift declares, as `COMPOSE_TUTORIAL_TARGETS` lists
// them: `<name>:library:<dependency>,...` or `<name>:test:<dependency>,...`, separated by
// spaces, each dependency a target of the app or a Compose product (a module of this package).
// Without those variables, nothing is added.
if let app = Context.environment["COMPOSE_TUTORIAL_APP"], let declared = Context.environment["COMPOSE_TUTORIAL_TARGETS"] {
    for entry in declared.split(separator: " ") {
        let fields = entry.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        precondition(fields.count == 3, "COMPOSE_TUTORIAL_TARGETS: '\(entry)' is not <name>:<library|test>:<dependencies>")
        let dependencies = fields[2].split(separator: ",").map { Target.Dependency.target(name: String($0)) }
        switch fields[1] {
        case "library":
            targets.append(
                .target(name: fields[0], dependencies: dependencies, path: "\(app)/Sources/\(fields[0])", packageAccess: false)
            )
        case "test":
            targets.append(
                .testTarget(name: fields[0], dependencies: dependencies, path: "\(app)/Tests/\(fields[0])", packageAccess: false)
            )
        default:
            preconditionFailure("COMPOSE_TUTORIAL_TARGETS: '\(fields[1])' is neither library nor test")
        }
    }
}

let package = Package(
    name: "Compose",
    // Synchronization's `Atomic` and Observation set the floor on Apple platforms.
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: modules.filter(\.isProduct).map { .library(name: $0.name, targets: [$0.name]) }
        + [.executable(name: "compose-session", targets: ["ComposeSessionTool"])],
    dependencies: externalPackages,
    targets: targets
)
