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
    /// child saves).
    @Test(.timeLimit(.minutes(3)))
    func aProcessKilledAtAnyMomentLeavesTheOldSaveOrTheNew() async throws {
        let directory = TemporaryDirectory()
        let storage = FilePersistentStorage(key: "crash", directory: directory.url)
        let store = Store<Payload>(storage: storage)
        store.state = Payload(marker: "A", size: 200_000)
        try store.persistence.save()

        var seen: [String: Int] = [:]
        for _ in 0..<200 {
            let child = ChildProcess.start(["save-loop", directory.path, "crash", "200000"])
            let output = Pipe()
            child.standardOutput = output
            try child.run()
            // Wait for the first save ("A") or the second ("B"), then a random moment more: the
            // kill lands during the next save or between saves, however slow the machine (a
            // save can take longer than the random delay under a sanitizer and a loaded disk).
            let savesToWaitFor = Int.random(in: 1...2)
            var saves = 0
            while saves < savesToWaitFor {
                let data = output.fileHandleForReading.availableData  // blocks until output
                guard !data.isEmpty else { break }
                saves += data.count { $0 == UInt8(ascii: "\n") }
            }
            try await Task.sleep(for: .microseconds(Int.random(in: 0...20_000)))
            kill(child.processIdentifier, SIGKILL)
            child.waitUntilExit()

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

    @Test func processesSavingOneKeyNeverInterleave() throws {
        let directory = TemporaryDirectory()
        let children = (0..<4).map { index in
            ChildProcess.start(["save-many", directory.path, "shared", "process\(index)", "50", "50000"])
        }
        for child in children { try child.run() }
        for child in children { child.waitUntilExit() }
        #expect(children.allSatisfy { $0.terminationStatus == 0 })
        let final = Store<Payload>(storage: FilePersistentStorage(key: "shared", directory: directory.url))
        #expect(try final.persistence.restore())
        #expect(final.state.marker.hasPrefix("process"))
        #expect(final.state.filler.count == 50_000)
        #expect(directory.contents == ["shared.json"])
    }
}
