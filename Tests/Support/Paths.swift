import Foundation

/// `directory` spelled relative to the current directory (`../../tmp/…`): another spelling of the
/// same directory, for tests of what a storage's identity and a sandbox's reach make of it.
public func spelledRelativeToCurrentDirectory(_ directory: URL) -> URL {
    let depth = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).pathComponents.count - 1
    return URL(fileURLWithPath: String(repeating: "../", count: depth) + directory.path.dropFirst())
}
