// swift-tools-version: 6.2
import PackageDescription

let package = Package(
    name: "ReadingList",
    platforms: [.macOS(.v15), .iOS(.v18)],
    dependencies: [
        // A clone of Compose next to this package. Its identity, "compose", is the last
        // component of the path (or of the URL, for a .package(url:) dependency).
        .package(path: "../compose")
    ],
    targets: [
        .target(
            name: "ReadingList",
            dependencies: [.product(name: "Compose", package: "compose")]
        ),
        .testTarget(
            name: "ReadingListTests",
            dependencies: ["ReadingList", .product(name: "ComposeTesting", package: "compose")]
        ),
    ]
)
