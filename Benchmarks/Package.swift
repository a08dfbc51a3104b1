// swift-tools-version: 6.2
//
// Compose's benchmarks: a package of their own, depending on Compose by path, so the library's
// manifest names only what the library and its tests use. `Scripts/bench` (at the repository's
// root) builds and runs them; `Scripts/bench --check` checks their allocations per operation
// against `Thresholds/`.
//
// - `ComposeBenchmarks`: every scenario, with its peers measured in the same run
//   (ordo-one/benchmark, which counts allocations as well as time).
// - `ComposeMemory`: the heap bytes one object costs, in a process without the harness's `malloc`
//   interposer (which adds a header to every allocation).
//
// Two sources are Compose's test support, reached through symbolic links so that one copy exists:
// `ComposeBenchmarks/Shared/RandomEdits.swift` (the seeded edits the diff's tests and its
// benchmark share) and `HeapStats` (the allocator statistics the soak reads too).

import Foundation
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

/// The package at "..", whose products are the modules users depend on. SwiftPM names a package
/// depended on by path after its directory, which is the clone's name.
let compose = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent().lastPathComponent

let package = Package(
    name: "ComposeBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        // The peer of the emitter and store scenarios, measured in the same run.
        .package(url: "https://github.com/OpenCombine/OpenCombine", from: "0.14.0"),
    ],
    targets: [
        .executableTarget(
            name: "ComposeBenchmarks",
            dependencies: [
                .product(name: "ComposeEmitters", package: compose),
                .product(name: "ComposeStore", package: compose),
                .product(name: "ComposeValidation", package: compose),
                .product(name: "ComposePersistence", package: compose),
                .product(name: "ComposeRefs", package: compose),
                .product(name: "ComposeRouting", package: compose),
                .product(name: "Compose", package: compose),
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "OpenCombine", package: "OpenCombine"),
            ],
            path: "Benchmarks/ComposeBenchmarks",
            swiftSettings: swiftSettings,
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // The C allocator's bytes in use, which Swift cannot read without a header: the soak's
        // target (`Tests/HeapStats` in Compose's package), through a symbolic link.
        .target(name: "HeapStats", path: "Benchmarks/HeapStats"),
        .executableTarget(
            name: "ComposeMemory",
            dependencies: [
                "HeapStats",
                .product(name: "ComposeEmitters", package: compose),
                .product(name: "ComposeStore", package: compose),
                .product(name: "OpenCombine", package: "OpenCombine"),
            ],
            path: "Benchmarks/ComposeMemory",
            swiftSettings: swiftSettings
        ),
    ]
)
