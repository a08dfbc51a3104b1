// What an executable built with the Swift runtime linked statically
// (`swift build -c release --static-swift-stdlib`, the way servers and command-line tools ship)
// must be able to do with Compose. `Scripts/check-static` builds it that way and runs it; it exits
// with status 1, naming the check, if any check fails.
//
// Each check goes through a path that reaches the Swift runtime directly: cancelling a
// subscription and looking up a `@Ref` ask `swift_tryRetain` whether an object is alive; a
// main-actor handler asks which thread it is on.

import Compose
import Foundation

struct Card: Codable, Equatable, Identifiable, Sendable {
    var id: String
    var title: String
}

struct CardState: AnyState, Codable {
    @Ref var card: Card
    var note = ""

    init() {
        _card = Ref(wrappedValue: Card(id: "static-check", title: "first"))
    }
}

struct Settings: AnyState, Codable {
    var volume = 0
}

nonisolated(unsafe) var failures: [String] = []

func check(_ condition: Bool, _ name: String) {
    print("\(condition ? "ok" : "FAILED"): \(name)")
    if !condition { failures.append(name) }
}

/// Values a handler records; handlers here run on the sending thread, or on the main actor.
final class Log<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [Value] = []
    func record(_ value: Value) { lock.withLock { stored.append(value) } }
    var values: [Value] { lock.withLock { stored } }
}

// Subscribe, send, cancel.
do {
    let emitter = ValueEmitter<Int>(label: "static.values")
    let heard = Log<Int>()
    let subscription = emitter += { heard.record($0) }
    emitter.send(1)
    subscription.cancel()
    emitter.send(2)
    check(heard.values == [1], "subscribe, send, cancel: the handler heard 1 and not 2")
}

// A store observer.
do {
    let store = Store<Settings>()
    let volumes = Log<Int>()
    let subscription = store.observe(\.volume) { volumes.record($0) }
    store.volume = 3
    subscription.cancel()
    store.volume = 4
    check(volumes.values == [3], "a store observer heard 3, and nothing once cancelled")
}

// A @Ref shared by two stores.
do {
    let first = Store<CardState>()
    let second = Store<CardState>()
    let titles = Log<String>()
    let subscription = second.observe(\.card.title) { titles.record($0) }
    first.card.title = "written through the first store"
    check(second.card.title == "written through the first store", "a @Ref shared by two stores reads one value")
    check(titles.values == ["written through the first store"], "the second store's observer heard the write")
    subscription.cancel()
}

// A save and a restore.
do {
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("compose-static-check-\(getpid())", isDirectory: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let saved = Store<Settings>(storage: FilePersistentStorage(key: "settings", directory: directory))
    saved.volume = 7
    do {
        try saved.persistence.save()
        let restored = Store<Settings>(storage: FilePersistentStorage(key: "settings", directory: directory))
        let found = try restored.persistence.restore()
        check(found && restored.volume == 7, "a save is restored by a new store")
    } catch {
        check(false, "a save and a restore: \(error)")
    }
}

// A main-actor handler, sent to from another thread and on the main actor.
await MainActor.run {
    let emitter = ValueEmitter<Int>(label: "static.mainActor")
    let heard = Log<Int>()
    emitter += { value in
        MainActor.assertIsolated()
        heard.record(value)
    }
    emitter.send(1)  // on the main actor: heard before `send` returns
    check(heard.values == [1], "a main-actor handler heard a value sent on the main actor at once")
}
do {
    let emitter = ValueEmitter<Int>(label: "static.mainActor.other")
    let heard = Log<Int>()
    await MainActor.run {
        _ = emitter += { value in heard.record(value) }
    }
    let sender = Thread { emitter.send(2) }
    sender.start()
    var waited = 0
    while heard.values.isEmpty, waited < 10_000 {
        try? await Task.sleep(for: .milliseconds(1))
        waited += 1
    }
    check(heard.values == [2], "a main-actor handler heard a value sent from another thread")
}

if failures.isEmpty {
    print("Every check passed.")
} else {
    print("\(failures.count) check(s) failed: \(failures.joined(separator: "; "))")
    exit(1)
}
