// What every fuzz target shares: handing over to libFuzzer's driver, and replaying inputs
// without it. A target defines `check(_:)` and its two entry points:
//
//   #if FUZZING
//   @_cdecl("<Product>_main")
//   func fuzzerMain(_ argc: CInt, _ argv: FuzzerArguments) -> CInt { runFuzzer(argc, argv, check) }
//   #else
//   @main enum Replay { static func main() throws { try replay(CommandLine.arguments.dropFirst(), check) } }
//   #endif

import Foundation

/// `argv`, as `main` receives it.
public typealias FuzzerArguments = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?

/// The target's check, which libFuzzer calls with each input. Set once, before the driver starts.
nonisolated(unsafe) private var currentCheck: ((UnsafeBufferPointer<UInt8>) -> Void)?

/// libFuzzer's test entry point: runs the target's check on one input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    currentCheck?(UnsafeBufferPointer(start: data, count: size))
    return 0
}

#if FUZZING
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt
) -> CInt

/// Runs libFuzzer's driver with the process's arguments, on `check`. SwiftPM links an
/// executable's entry point as `<Product>_main`, so a target's `<Product>_main` calls this.
public func runFuzzer(_ argc: CInt, _ argv: FuzzerArguments, _ check: @escaping (UnsafeBufferPointer<UInt8>) -> Void) -> CInt {
    currentCheck = check
    var argc = argc
    var argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzOneInput(data, size) }
}
#endif

/// Without libFuzzer: runs `check` on each file given, or on every file of each directory given,
/// and prints how many inputs it replayed.
public func replay(_ arguments: some Sequence<String>, _ check: (UnsafeBufferPointer<UInt8>) -> Void) throws {
    var files: [URL] = []
    for argument in arguments {
        let url = URL(fileURLWithPath: argument)
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue {
            files += try FileManager.default.contentsOfDirectory(at: url, includingPropertiesForKeys: nil)
                .sorted { $0.path < $1.path }
        } else {
            files.append(url)
        }
    }
    for file in files {
        let data = try Data(contentsOf: file)
        data.withUnsafeBytes { check($0.bindMemory(to: UInt8.self)) }
    }
    print("Replayed \(files.count) inputs.")
}
