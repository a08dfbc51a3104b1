#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Foundation

/// Atomic, durable file operations on POSIX.
///
/// A write goes to a temporary file in the same directory, which is flushed to disk, renamed over
/// the target, and followed by a flush of the directory (so the rename itself survives a power
/// loss). A process killed at any moment leaves the old file or the new one, never a torn or
/// empty one. Concurrent writers each use a temporary file of their own, so writes never
/// interleave: the last rename wins.
enum AtomicFile {
    /// Writes `data` to `path` atomically and durably, creating the directory if needed. The file
    /// is readable and writable by its owner only.
    static func write(_ data: Data, to path: String, temporary: String) throws(PersistenceError) {
        let directory = (path as NSString).deletingLastPathComponent
        try createDirectory(directory, for: path)
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw failure(path, "cannot create \(temporary)") }
        var done = false
        defer { if !done { unlink(temporary) } }
        do throws(PersistenceError) {
            try writeAll(data, to: descriptor, path: path)
            try synchronize(descriptor, path: path)
        } catch {
            close(descriptor)
            throw error
        }
        guard close(descriptor) == 0 else { throw failure(path, "cannot close \(temporary)") }
        guard rename(temporary, path) == 0 else { throw failure(path, "cannot rename \(temporary) over it") }
        done = true
        // The rename is durable only once the directory is.
        let directoryDescriptor = open(directory, O_RDONLY | O_CLOEXEC)
        if directoryDescriptor >= 0 {
            defer { close(directoryDescriptor) }
            try synchronize(directoryDescriptor, path: directory)
        }
    }

    /// The contents of `path`, or `nil` if it does not exist.
    static func read(_ path: String) throws(PersistenceError) -> Data? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            throw PersistenceError.unreadable(location: path, reason: describe(errno))
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw PersistenceError.unreadable(location: path, reason: describe(errno))
        }
        var data = Data(count: Int(status.st_size))
        var offset = 0
        let failure: Int32? = data.withUnsafeMutableBytes { buffer -> Int32? in
            while offset < buffer.count {
                let count = systemRead(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if count < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                if count == 0 { break }  // The file shrank while being read.
                offset += count
            }
            return nil
        }
        if let failure { throw PersistenceError.unreadable(location: path, reason: describe(failure)) }
        return offset == data.count ? data : data.prefix(offset)
    }

    /// Removes `path`; succeeds if it does not exist.
    static func remove(_ path: String) throws(PersistenceError) {
        if unlink(path) != 0, errno != ENOENT {
            throw PersistenceError.unwritable(location: path, reason: "cannot remove it: \(describe(errno))")
        }
    }

    /// Moves `path` to a new name beside it, `<name>.corrupt-<date>[-n]`, never replacing a file.
    ///
    /// - Returns: The new path, or `nil` if `path` did not exist.
    static func moveAside(_ path: String, date: Date = Date()) throws(PersistenceError) -> String? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withYear, .withMonth, .withDay, .withTime, .withTimeZone]
        let stamp = formatter.string(from: date).replacingOccurrences(of: ":", with: "")
        for attempt in 0..<1_000 {
            let candidate = "\(path).corrupt-\(stamp)" + (attempt == 0 ? "" : "-\(attempt)")
            // link() fails if the name is taken, so nothing already set aside is replaced.
            if link(path, candidate) == 0 {
                unlink(path)
                return candidate
            }
            switch errno {
            case EEXIST: continue
            case ENOENT: return nil
            default: throw failure(path, "cannot move it aside to \(candidate)")
            }
        }
        throw failure(path, "cannot find a free name to move it aside")
    }

    /// Removes the temporary files of `prefix` in `directory` whose writing process is gone.
    ///
    /// A process killed during a save leaves its temporary file; another process's file is kept
    /// while that process runs, since it may still rename it.
    static func removeAbandonedTemporaryFiles(directory: String, prefix: String) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        for name in names where name.hasPrefix(prefix) && name.hasSuffix(".tmp") {
            let parts = name.dropFirst(prefix.count).split(separator: ".")
            guard let pid = parts.first.flatMap({ pid_t($0) }), pid != getpid() else { continue }
            if kill(pid, 0) != 0, errno == ESRCH {
                unlink("\(directory)/\(name)")
            }
        }
    }

    // MARK: Helpers

    private static func createDirectory(_ directory: String, for path: String) throws(PersistenceError) {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw PersistenceError.unwritable(location: path, reason: "\(directory) is not a directory")
            }
            return
        }
        do {
            try FileManager.default.createDirectory(
                atPath: directory,
                withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700]
            )
        } catch {
            throw PersistenceError.unwritable(location: path, reason: "cannot create \(directory): \(error)")
        }
    }

    private static func writeAll(_ data: Data, to descriptor: Int32, path: String) throws(PersistenceError) {
        let failure: Int32? = data.withUnsafeBytes { buffer -> Int32? in
            var offset = 0
            while offset < buffer.count {
                let count = systemWrite(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if count < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += count
            }
            return nil
        }
        if let failure { throw PersistenceError.unwritable(location: path, reason: "write failed: \(describe(failure))") }
    }

    private static func synchronize(_ descriptor: Int32, path: String) throws(PersistenceError) {
        #if canImport(Darwin)
        // fsync on Apple platforms does not reach the disk's platters; F_FULLFSYNC does.
        if fcntl(descriptor, F_FULLFSYNC) == 0 { return }
        #endif
        while fsync(descriptor) != 0 {
            if errno == EINTR { continue }
            // Directories on some file systems cannot be synchronized; the data already was.
            if errno == EINVAL || errno == EBADF { return }
            throw failure(path, "fsync failed")
        }
    }

    private static func failure(_ path: String, _ what: String) -> PersistenceError {
        .unwritable(location: path, reason: "\(what): \(describe(errno))")
    }

    static func describe(_ code: Int32) -> String {
        String(cString: strerror(code)) + " (errno \(code))"
    }
}

// Inside `AtomicFile`, `read` and `write` name its own operations; these call the system.
@inline(__always)
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}

@inline(__always)
private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, buffer, count)
}
