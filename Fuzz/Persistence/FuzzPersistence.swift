// A libFuzzer target for restoring persisted states.
//
//   Scripts/fuzz persistence 60        # fuzz for 60 seconds (builds with -sanitize=fuzzer,address)
//   swift run FuzzPersistence FILE…    # replay inputs (a crash's, or the corpus) without libFuzzer
//
// Each input is a save file's bytes, restored into three states: a plain one, one that migrates
// from older versions, and one holding refs. Any bytes must give the state or a
// `PersistenceError`, never a crash. What the documentation promises is checked too:
// - a successful restore replaces the state, and saving it and restoring the save gives it back;
// - a failed restore leaves the state as it was; a corrupt save is moved aside (nothing is
//   lost), and a save from a newer format or version is left where it is.

import ComposePersistence
import ComposeRefs
import ComposeStore
import Foundation
import FuzzSupport

/// A plain state, with the shapes JSON decoding has to get right.
struct Profile: AnyState, Codable {
    enum Plan: String, Codable { case free, pro }
    struct Address: Codable, Equatable {
        var street = ""
        var zip: Int?
    }

    var name = ""
    var age = 0
    var score = 0.0
    var plan = Plan.free
    var tags: [String] = []
    var address = Address()
    var joined: Date?
    var flags: [String: Bool] = [:]
}

/// A state at version 3: version 1 called `email` "mail", version 2 stored `age` as a string.
struct Account: MigratableState {
    var email = ""
    var age = 0

    static var persistenceVersion: Int { 3 }

    struct MigrationError: Error {}

    static func migrate(_ json: Data, from version: Int) throws -> Data {
        guard var object = try JSONSerialization.jsonObject(with: json) as? [String: Any] else {
            throw MigrationError()
        }
        if version < 2 { object["email"] = object.removeValue(forKey: "mail") }
        if version < 3 {
            guard let text = object["age"] as? String, let age = Int(text) else { throw MigrationError() }
            object["age"] = age
        }
        return try JSONSerialization.data(withJSONObject: object)
    }
}

/// A card that several stores may share by id.
struct Card: Codable, Equatable, Identifiable, Sendable {
    var id: String
    var title = ""
}

/// A state holding refs: restoring it joins (or creates) the shared entries of its ids.
struct Deck: AnyState, Codable {
    @Ref var top = Card(id: "top")
    @RefCollection var cards: [Card] = []
    var name = ""
}

/// Set `FUZZ_VERBOSE=1` to print each outcome when replaying.
let verbose = ProcessInfo.processInfo.environment["FUZZ_VERBOSE"] != nil

/// Restores `bytes` into a store of `State` that holds `sentinel`, and checks the outcome.
func restore<State: AnyState & Codable>(_ bytes: Data, into sentinel: State) {
    let storage = InMemoryPersistentStorage(data: bytes)
    let store = Store(wrappedValue: sentinel, storage: storage)
    do {
        let found = try store.persistence.restore()
        precondition(found, "a save was there, yet restore found nothing")
        // What was restored survives another save and restore.
        let restored = store.state
        try store.persistence.save()
        let again = Store(wrappedValue: sentinel, storage: InMemoryPersistentStorage(data: storage.data))
        let foundAgain = try again.persistence.restore()
        precondition(foundAgain, "the new save was not found")
        precondition(again.state == restored, "save and restore changed the state: \(restored) -> \(again.state)")
        if verbose { print("\(State.self): restored \(restored)") }
    } catch {
        precondition(store.state == sentinel, "a failed restore (\(error)) changed the state")
        if verbose { print("\(State.self): \(error)") }
        switch error {
        case .corrupt(_, _, let movedTo):
            precondition(
                movedTo != nil && storage.data == nil && storage.movedAside.last == bytes,
                "a corrupt save was not moved aside intact")
        case .unsupportedFormat, .migrationFailed:
            precondition(storage.data == bytes, "a save that could not be migrated was not left in place")
        default:
            preconditionFailure("unexpected error restoring an in-memory save: \(error)")
        }
    }
}

func check(_ bytes: UnsafeBufferPointer<UInt8>) {
    let data = Data(buffer: bytes)
    restore(data, into: Profile(name: "sentinel", age: -1))
    restore(data, into: Account(email: "sentinel", age: -1))
    var deck = Deck()
    deck.name = "sentinel"
    restore(data, into: deck)
}

#if FUZZING
@_cdecl("FuzzPersistence_main")
func fuzzerMain(_ argc: CInt, _ argv: FuzzerArguments) -> CInt { runFuzzer(argc, argv, check) }
#else
/// Without libFuzzer: replays the files given (or every file of the directories given).
@main enum Replay { static func main() throws { try replay(CommandLine.arguments.dropFirst(), check) } }
#endif
