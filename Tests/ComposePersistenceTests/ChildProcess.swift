import ComposeTestSupport
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs `ComposePersistenceCrashChild`, built beside the test binary.
enum ChildProcess {
    static var executable: URL {
        // The test binary (or, on macOS, the bundle it is in) sits in the build products directory.
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: directory.appendingPathComponent("ComposePersistenceCrashChild").path),
            directory.pathComponents.count > 1
        {
            directory.deleteLastPathComponent()
        }
        return directory.appendingPathComponent("ComposePersistenceCrashChild")
    }

    /// Runs the child to completion, waiting on a thread of its own (see `onAThread`).
    ///
    /// - Returns: Its exit status.
    static func run(_ arguments: [String]) async throws -> Int32 {
        try await onAThread {
            let process = start(arguments)
            try process.run()
            process.waitUntilExit()
            return process.terminationStatus
        }
    }

    static func start(_ arguments: [String]) -> Process {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        return process
    }
}
