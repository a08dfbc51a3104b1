// A child process for ComposePersistence's crash and concurrency tests.
//
//   ComposePersistenceCrashChild save-loop <directory> <key> <size>
//       Saves "A" and "B" payloads of `size` characters alternately, forever (until killed),
//       writing "saved" on standard output after each save.
//   ComposePersistenceCrashChild save-many <directory> <key> <marker> <count> <size>
//       Saves the payload `marker` `count` times, then exits.
//   ComposePersistenceCrashChild autosave-exit <directory> <key>
//       Makes two changes under autosave with a one-minute window, then exits normally at once:
//       the second change is pending, and must be saved on the way out.

import ComposePersistence
import ComposeStore
import ComposeTestSupport
import Foundation

let arguments = CommandLine.arguments
guard arguments.count >= 4 else {
    FileHandle.standardError.write(Data("usage: \(arguments[0]) mode directory key ...\n".utf8))
    exit(2)
}
let directory = URL(fileURLWithPath: arguments[2], isDirectory: true)
let storage = FilePersistentStorage(key: arguments[3], directory: directory)

switch arguments[1] {
case "save-loop":
    let size = Int(arguments[4]) ?? 100_000
    let store = Store<Payload>(storage: storage)
    let payloads = [Payload(marker: "A", size: size), Payload(marker: "B", size: size)]
    var index = 0
    while true {
        store.state = payloads[index % 2]
        try store.persistence.save()
        FileHandle.standardOutput.write(Data("saved\n".utf8))
        index += 1
    }
case "save-many":
    let marker = arguments[4]
    let count = Int(arguments[5]) ?? 100
    let size = Int(arguments[6]) ?? 10_000
    let store = Store<Payload>(storage: storage)
    store.state = Payload(marker: marker, size: size)
    for _ in 0..<count { try store.persistence.save() }
case "autosave-exit":
    let store = Store<Payload>(storage: storage, autosave: .coalescing(window: .seconds(60)))
    store.state.marker = "first"
    store.state.marker = "second"
    exit(0)
default:
    FileHandle.standardError.write(Data("unknown mode \(arguments[1])\n".utf8))
    exit(2)
}
