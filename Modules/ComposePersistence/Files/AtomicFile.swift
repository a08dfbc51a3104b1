import ComposeMachinery
import Foundation

/// Atomic, durable file operations on POSIX.
///
/// A write goes to a temporary file in the same directory, which is flushed to disk, renamed over
/// the target, and followed by a flush of the directory (so the rename itself survives a power
/// loss). A process killed at any moment leaves the old file or the new one, never a torn or
/// empty one. Concurrent writers each use a temporary file of their own, so writes never
/// interleave: the last rename wins.
///
/// ## The directory lock
/// Every writer holds a shared advisory lock (`flock`) on the directory from before it creates
/// its temporary file until after its rename. Two operations take it exclusively:
/// - setting a corrupt file aside: it compares the file with the bytes that failed to decode and
///   moves it only if they are the same, and no writer can rename a new save in between;
/// - removing abandoned temporary files, without waiting: if the lock is free, no writer in any
///   process (whatever its PID namespace) is between creating a temporary file and renaming it,
///   so every temporary file left is abandoned.
///
/// Where the file system does not support `flock`, writers go on without it, corrupt files are
/// compared and set aside without it (a save renamed in at that very moment could then be set
/// aside with them), and temporary files are never removed.
enum AtomicFile {
    /// Writes `data` to `path` atomically and durably, creating the directory if needed. The file
    /// is readable and writable by its owner only.
    ///
    /// - Parameter temporaryPrefix: The start of the temporary file's name, in the same directory.
    static func write(_ data: Data, to path: String, temporaryPrefix: String) throws(PersistenceError) {
        let directory = (path as NSString).deletingLastPathComponent
        try createDirectory(directory, for: path)
        let lock = try DirectoryLock(directory, for: path)
        defer { lock.close() }
        lock.lock(exclusive: false)
        let temporary = "\(directory)/\(temporaryPrefix)\(getpid()).\(UInt64.random(in: 0...UInt64.max)).tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw failure(path, "cannot create \(temporary)") }
        FileSystemTrace.record(.create(temporary))
        var done = false
        defer { if !done { unlink(temporary) } }
        do throws(PersistenceError) {
            try writeAll(data, to: descriptor, file: temporary, for: path)
            // Flushed before the rename publishes it: after a power loss, the new name never
            // holds bytes that did not reach the disk.
            try synchronize(descriptor, file: temporary, for: path)
        } catch {
            close(descriptor)
            throw error
        }
        guard close(descriptor) == 0 else { throw failure(path, "cannot close \(temporary)") }
        FileSystemTrace.record(.close(temporary))
        guard rename(temporary, path) == 0 else { throw failure(path, "cannot rename \(temporary) over it") }
        FileSystemTrace.record(.rename(from: temporary, to: path))
        done = true
        // The rename is durable only once the directory is.
        try synchronize(lock.descriptor, file: directory, for: directory)
    }

    /// The contents of `path`, or `nil` if it does not exist.
    ///
    /// Anything but a regular file (a FIFO, a socket, a device, a directory) is refused before it
    /// is read, without blocking; so is a file larger than `maximumSize`, before its bytes are
    /// allocated.
    static func read(_ path: String, maximumSize: Int) throws(PersistenceError) -> Data? {
        // Look before opening: opening a FIFO for reading blocks until a writer comes, and opening
        // some devices has effects.
        var status = stat()
        guard stat(path, &status) == 0 else {
            if errno == ENOENT { return nil }
            throw PersistenceError.unreadable(location: path, reason: describe(errno))
        }
        try checkRegularFile(status, path: path)
        // O_NONBLOCK: if a FIFO was put there since, opening it still returns at once.
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            throw PersistenceError.unreadable(location: path, reason: describe(errno))
        }
        defer { close(descriptor) }
        guard fstat(descriptor, &status) == 0 else {
            throw PersistenceError.unreadable(location: path, reason: describe(errno))
        }
        try checkRegularFile(status, path: path)
        let size = Int(status.st_size)
        guard size <= maximumSize else {
            throw PersistenceError.tooLarge(location: path, size: size, limit: maximumSize)
        }
        var data = Data(count: size)
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

    /// Moves `path` to a new name beside it, `<name>.corrupt-<date>[-n]`, if it still holds
    /// exactly `expected`, never replacing a file.
    ///
    /// Under the directory's exclusive lock: no save can be renamed over `path` between the
    /// comparison and the move, so a completed save is never set aside.
    ///
    /// - Returns: The new path, or `nil` if `path` does not exist or holds other bytes.
    static func moveAside(
        _ path: String, ifContents expected: Data, maximumSize: Int, date: Date = Date()
    ) throws(PersistenceError) -> String? {
        let directory = (path as NSString).deletingLastPathComponent
        let lock = try DirectoryLock(directory, for: path)
        defer { lock.close() }
        lock.lock(exclusive: true)
        guard let current = try read(path, maximumSize: max(maximumSize, expected.count)), current == expected else {
            return nil
        }
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

    /// Removes the temporary files whose names start with `prefix` in `directory`, if no writer
    /// holds the directory lock (see "The directory lock"); otherwise leaves them for later.
    static func removeAbandonedTemporaryFiles(directory: String, prefix: String) {
        guard let lock = try? DirectoryLock(directory, for: directory) else { return }
        defer { lock.close() }
        guard lock.tryLockExclusively() else { return }
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        for name in names where name.hasPrefix(prefix) && name.hasSuffix(".tmp") {
            unlink("\(directory)/\(name)")
        }
    }

    // MARK: Helpers

    /// Refuses anything but a regular file, naming what it is.
    private static func checkRegularFile(_ status: stat, path: String) throws(PersistenceError) {
        let kind: String
        switch status.st_mode & S_IFMT {
        case S_IFREG: return
        case S_IFDIR: kind = "a directory"
        case S_IFIFO: kind = "a FIFO"
        case S_IFSOCK: kind = "a socket"
        case S_IFCHR: kind = "a character device"
        case S_IFBLK: kind = "a block device"
        default: kind = "not a regular file"
        }
        throw PersistenceError.notARegularFile(location: path, kind: kind)
    }

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

    /// Writes all of `data` to `file`, open as `descriptor`; `path` names the save in errors.
    private static func writeAll(_ data: Data, to descriptor: Int32, file: String, for path: String) throws(PersistenceError) {
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
        FileSystemTrace.record(.write(file))
    }

    /// Flushes `file` (a file or directory), open as `descriptor`, to disk; `path` names the save
    /// in errors.
    private static func synchronize(_ descriptor: Int32, file: String, for path: String) throws(PersistenceError) {
        #if canImport(Darwin)
        // fsync on Apple platforms does not reach the disk's platters; F_FULLFSYNC does.
        if fcntl(descriptor, F_FULLFSYNC) == 0 {
            FileSystemTrace.record(.synchronize(file))
            return
        }
        #endif
        while fsync(descriptor) != 0 {
            if errno == EINTR { continue }
            // Directories on some file systems cannot be synchronized; the data already was.
            if errno == EINVAL || errno == EBADF { return }
            throw failure(path, "fsync failed")
        }
        FileSystemTrace.record(.synchronize(file))
    }

    private static func failure(_ path: String, _ what: String) -> PersistenceError {
        .unwritable(location: path, reason: "\(what): \(describe(errno))")
    }

    static func describe(_ code: Int32) -> String {
        String(cString: strerror(code)) + " (errno \(code))"
    }
}

/// An open directory and its advisory lock (see ``AtomicFile``'s "The directory lock").
struct DirectoryLock {
    let descriptor: Int32

    /// Opens `directory`; `path` names the file the operation is for, in errors.
    init(_ directory: String, for path: String) throws(PersistenceError) {
        descriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw PersistenceError.unwritable(location: path, reason: "cannot open \(directory): \(AtomicFile.describe(errno))")
        }
    }

    /// Waits for the lock. Goes on without it where the file system has no `flock`.
    func lock(exclusive: Bool) {
        while flock(descriptor, exclusive ? LOCK_EX : LOCK_SH) != 0 {
            guard errno == EINTR else { return }
        }
    }

    /// Takes the lock exclusively if nobody holds it; `false` otherwise, and where the file
    /// system has no `flock`.
    func tryLockExclusively() -> Bool {
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EINTR else { return false }
        }
        return true
    }

    /// Closes the directory, which releases the lock.
    func close() {
        _ = systemClose(descriptor)
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

@inline(__always)
private func systemClose(_ descriptor: Int32) -> Int32 {
    close(descriptor)
}
