import ComposePersistence
import ComposeStore
import ComposeTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite struct CrashTests {
    /// A child saves "A" and "B" in a loop and is killed with SIGKILL at a random moment, 200
    /// times: the file must always be one whole save or the other. The kill comes a random time
    /// after the child reports its first or second save, so it lands inside the loop however
    /// fast or slow the child runs (real time is needed here: the kill has to land while the
    /// child saves). Each round waits for its child on a thread of its own (see `onAThread`).
    @Test(.timeLimit(.minutes(5)))
    func aProcessKilledAtAnyMomentLeavesTheOldSaveOrTheNew() async throws {
        let directory = TemporaryDirectory()
        let storage = FilePersistentStorage(key: "crash", directory: directory.url)
        let store = Store<Payload>(storage: storage)
        store.state = Payload(marker: "A", size: 200_000)
        try store.persistence.save()

        var seen: [String: Int] = [:]
        for _ in 0..<200 {
            try await onAThread {
                let child = ChildProcess.start(["save-loop", directory.path, "crash", "200000"])
                let output = Pipe()
                child.standardOutput = output
                try child.run()
                // Wait for the first save ("A") or the second ("B"), then a random moment more:
                // the kill lands during the next save or between saves, however slow the machine
                // (a save can take longer than the random delay under a sanitizer and a loaded
                // disk).
                let savesToWaitFor = Int.random(in: 1...2)
                var saves = 0
                while saves < savesToWaitFor {
                    let data = output.fileHandleForReading.availableData  // blocks until output
                    guard !data.isEmpty else { break }
                    saves += data.count { $0 == UInt8(ascii: "\n") }
                }
                usleep(UInt32.random(in: 0...20_000))
                kill(child.processIdentifier, SIGKILL)
                child.waitUntilExit()
            }

            let reader = Store<Payload>(storage: storage)
            #expect(try reader.persistence.restore(), "the file must exist")
            let marker = reader.state.marker
            #expect(marker == "A" || marker == "B", "a torn save: \(marker.prefix(10))")
            #expect(reader.state.filler.count == 200_000)
            seen[marker, default: 0] += 1
        }
        // Both states were found: the kills did land between and during saves.
        #expect(seen.keys.sorted() == ["A", "B"])
        // Restoring removed the temporary files the killed children left.
        #expect(directory.contents.filter { $0.hasSuffix(".tmp") }.isEmpty)
    }
}

@Suite struct ConcurrentSaveTests {
    @Test func threadsAndStoresSavingOneKeyNeverInterleave() async throws {
        let directory = TemporaryDirectory()
        let markers = (0..<8).map { "writer\($0)" }
        await withTaskGroup(of: Void.self) { group in
            for marker in markers {
                group.addTask {
                    let store = Store<Payload>(storage: FilePersistentStorage(key: "shared", directory: directory.url))
                    store.state = Payload(marker: marker, size: 50_000)
                    for _ in 0..<20 { try? store.persistence.save() }
                }
            }
            // A reader that restores while the writers write: every read is one whole save.
            group.addTask {
                let reader = Store<Payload>(storage: FilePersistentStorage(key: "shared", directory: directory.url))
                for _ in 0..<100 {
                    if (try? reader.persistence.restore()) == true {
                        #expect(markers.contains(reader.state.marker))
                        #expect(reader.state.filler.count == 50_000)
                    }
                }
            }
        }
        let final = Store<Payload>(storage: FilePersistentStorage(key: "shared", directory: directory.url))
        #expect(try final.persistence.restore())
        #expect(markers.contains(final.state.marker))
        #expect(directory.contents == ["shared.json"])
    }

    @Test func processesSavingOneKeyNeverInterleave() async throws {
        let directory = TemporaryDirectory()
        let statuses = try await onAThread {
            let children = (0..<4).map { index in
                ChildProcess.start(["save-many", directory.path, "shared", "process\(index)", "50", "50000"])
            }
            for child in children { try child.run() }
            for child in children { child.waitUntilExit() }
            return children.map(\.terminationStatus)
        }
        #expect(statuses == [0, 0, 0, 0])
        let final = Store<Payload>(storage: FilePersistentStorage(key: "shared", directory: directory.url))
        #expect(try final.persistence.restore())
        #expect(final.state.marker.hasPrefix("process"))
        #expect(final.state.filler.count == 50_000)
        #expect(directory.contents == ["shared.json"])
    }
}

/// Writers whose process ids this process cannot see (containers, sandboxes: another PID
/// namespace). A temporary file is abandoned only when no writer holds the directory lock, never
/// because its writer's pid looks dead from here.
@Suite(.enabled(if: PIDNamespace.isAvailable, "needs root and unshare(1) to make a PID namespace"))
struct PIDNamespaceTests {
    /// A child in a new PID namespace, with a pid that does not exist in this one, saves in a
    /// loop while this process restores the same key 300 times: every one of its saves succeeds.
    /// Before the fix, the restores deleted its temporary files as those of a dead process, and
    /// most of its saves failed with ENOENT.
    @Test(.timeLimit(.minutes(5)))
    func aWriterInAnotherPIDNamespaceKeepsItsTemporaryFiles() async throws {
        let directory = TemporaryDirectory()
        try FileManager.default.createDirectory(at: directory.url, withIntermediateDirectories: true)
        // On a thread of its own: it waits for the child's output (see `onAThread`).
        let (fillerCounts, writerFailure) = try await onAThread { () throws -> ([Int], String?) in
            let child = PIDNamespace.start(ChildProcess.executable.path, ["save-loop", directory.path, "shared", "200000"])
            let output = Pipe(), errors = Pipe()
            child.standardOutput = output
            child.standardError = errors
            try child.run()
            defer {
                if child.isRunning { kill(child.processIdentifier, SIGKILL) }
                child.waitUntilExit()
            }
            // Wait for the first save, then restore while it keeps saving.
            _ = output.fileHandleForReading.availableData
            let reader = Store<Payload>(storage: FilePersistentStorage(key: "shared", directory: directory.url))
            var fillerCounts: [Int] = []
            for _ in 0..<300 {
                _ = try reader.persistence.restore()
                fillerCounts.append(reader.state.filler.count)
            }
            guard child.isRunning else {
                return (fillerCounts, String(decoding: errors.fileHandleForReading.availableData, as: UTF8.self))
            }
            return (fillerCounts, nil)
        }
        #expect(fillerCounts.allSatisfy { $0 == 200_000 })
        #expect(writerFailure == nil, "the writer failed: \(writerFailure ?? "")")
    }

    /// The same rule, seen directly: a temporary file whose writer (in another PID namespace,
    /// under a pid unknown here) holds the directory lock is kept.
    @Test func aLockedTemporaryFileOfAnUnknownPIDIsKept() async throws {
        let directory = TemporaryDirectory()
        try directory.write("in progress", to: ".k.json.999999.1.tmp")
        // On a thread of its own: it waits for the lock and the holder (see `onAThread`).
        try await onAThread {
            // flock(1) holds a shared lock on the directory, as a writer does, from a new namespace.
            let holder = PIDNamespace.start("/usr/bin/flock", ["--shared", directory.path, "sleep", "30"])
            try holder.run()
            defer {
                kill(holder.processIdentifier, SIGKILL)
                holder.waitUntilExit()
            }
            // Wait until the lock is held: our exclusive attempt fails.
            let probe = open(directory.path, O_RDONLY | O_DIRECTORY)
            defer { close(probe) }
            while flock(probe, LOCK_EX | LOCK_NB) == 0 {
                flock(probe, LOCK_UN)
                usleep(1_000)
            }
            _ = try FilePersistentStorage(key: "k", directory: directory.url).read()
        }
        #expect(directory.contents == [".k.json.999999.1.tmp"])
    }
}

/// Running a process in a PID namespace of its own (Linux, as root).
enum PIDNamespace {
    static var isAvailable: Bool {
        #if os(Linux)
        return geteuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare")
            && FileManager.default.isExecutableFile(atPath: "/usr/bin/flock")
        #else
        return false
        #endif
    }

    /// `executable arguments` in a new PID namespace, started by a shell that first forks until
    /// the next pid does not exist in this namespace (its `/proc` is still this namespace's), so
    /// the process's pid means nothing here.
    static func start(_ executable: String, _ arguments: [String]) -> Process {
        let quoted = ([executable] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(
            separator: " ")
        // Command substitution, not `&` and `wait`: the test process blocks SIGCHLD, its children
        // inherit the mask, and the shell's `wait` would never return.
        let script = """
            while :; do p=$(sh -c 'echo $$'); [ -e /proc/$((p + 1)) ] || break; done
            \(quoted)
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
        process.arguments = ["--pid", "--fork", "--kill-child", "/bin/sh", "-c", script]
        return process
    }
}
