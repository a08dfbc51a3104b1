import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The one spelling of a path: absolute, with every symbolic link along it followed and `.`, `..`
/// and repeated slashes removed, whether or not the whole path exists yet.
///
/// The longest leading part of the path that exists is resolved by the file system (`realpath`,
/// so `link/..` is the link target's parent); the rest, which does not exist, is appended with
/// `.` and `..` removed by spelling. A directory not created yet thus has the canonical path it
/// will have once created, and a storage's identity and a sandbox's reach do not change when the
/// directory appears. A loop of links is a part that does not resolve, and is kept as spelled.
enum CanonicalPath {
    /// The canonical path of `url`, a file URL (made absolute against the current directory).
    static func of(_ url: URL) -> String {
        let components = url.absoluteURL.path.split(separator: "/").map(String.init)
        var existing = components.count
        while existing > 0 {
            if let resolved = realPath("/" + components[..<existing].joined(separator: "/")) {
                return lexicallyStandardized(resolved, appending: components[existing...])
            }
            existing -= 1
        }
        return lexicallyStandardized("/", appending: components[...])
    }

    /// The canonical path's components, for a test of containment.
    static func components(of url: URL) -> [String] {
        of(url).split(separator: "/").map(String.init)
    }

    /// The components of `url` as spelled (made absolute, `.` and `..` removed by spelling, no
    /// link followed): where a path through a link says it is, which can differ from where the
    /// link leads.
    static func spelledComponents(of url: URL) -> [String] {
        let components = url.absoluteURL.path.split(separator: "/").map(String.init)
        return lexicallyStandardized("/", appending: components[...]).split(separator: "/").map(String.init)
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    private static func lexicallyStandardized(_ base: String, appending rest: ArraySlice<String>) -> String {
        var components = base.split(separator: "/").map(String.init)
        for component in rest {
            switch component {
            case ".": continue
            case "..": if !components.isEmpty { components.removeLast() }
            default: components.append(component)
            }
        }
        return "/" + components.joined(separator: "/")
    }
}
