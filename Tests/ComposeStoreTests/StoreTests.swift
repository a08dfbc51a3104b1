import ComposeEmitters
import ComposeTestSupport
import Dispatch
import Testing

@testable import ComposeStore

struct Profile: AnyState {
    var firstName = ""
    var lastName = ""
    var age = 0
    var tags: [String] = []
    var address = Address()

    struct Address: Equatable, Sendable {
        var street = ""
        var city = ""
    }

    var fullName: String {
        get { "\(firstName) \(lastName)" }
        set {
            let parts = newValue.split(separator: " ", maxSplits: 1).map(String.init)
            firstName = parts.first ?? ""
            lastName = parts.count > 1 ? parts[1] : ""
        }
    }
}

@Suite struct StoreTests {
    @Test func wrappedValueKeyedAccessAndStateAgree() {
        let store = Store<Profile>()
        store.wrappedValue.firstName = "Jill"
        store.lastName = "Valentine"  // keyed write
        store.state.age = 23
        #expect(store.firstName == "Jill")  // keyed read
        #expect(store.state.lastName == "Valentine")
        #expect(store.wrappedValue.age == 23)
        #expect(store.address.city == "")
        store.address.city = "Raccoon City"  // keyed write to a nested stored property
        #expect(store.state.address.city == "Raccoon City")
    }

    @Test func computedKeyPathsReadAndWriteThroughACopy() {
        let store = Store<Profile>()
        store.fullName = "Jill Valentine"
        #expect(store.firstName == "Jill")
        #expect(store.lastName == "Valentine")
        #expect(store.fullName == "Jill Valentine")
    }

    @Test func mutateNotifiesOnceForTheBatch() {
        let store = Store<Profile>()
        let changes = Recorder<Profile>()
        store.willChange += changes.record
        store.mutate { state in
            state.firstName = "Jill"
            state.lastName = "Valentine"
            state.age = 23
        }
        #expect(changes.count == 1)
        #expect(changes.values.first?.lastName == "Valentine")
    }

    @Test func mutateReturnsWhatItsBodyReturns() {
        let store = Store<Profile>()
        let count = store.mutate { state -> Int in
            state.tags.append("a")
            return state.tags.count
        }
        #expect(count == 1)
    }

    @Test func aThrowingMutateChangesNothing() {
        struct Refused: Error {}
        let store = Store<Profile>()
        let changes = Recorder<Profile>()
        store.willChange += changes.record
        #expect(throws: Refused.self) {
            try store.mutate { state in
                state.firstName = "half-done"
                throw Refused()
            }
        }
        #expect(store.firstName == "")
        #expect(changes.count == 0)
    }

    @Test func aNestedMutateThatThrowsUndoesOnlyItsOwnChanges() {
        struct Refused: Error {}
        let store = Store<Profile>()
        store.mutate { state in
            state.firstName = "kept"
            #expect(throws: Refused.self) {
                try store.mutate { inner in
                    inner.lastName = "undone"
                    throw Refused()
                }
            }
            #expect(state.lastName == "")
        }
        #expect(store.firstName == "kept")
        #expect(store.lastName == "")
    }

    @Test func writesInsideAMutateBodyJoinTheBatch() {
        let store = Store<Profile>()
        let changes = Recorder<Profile>()
        store.willChange += changes.record
        store.mutate { state in
            state.firstName = "Jill"
            // Through the wrapper, keyed, and nested: all see and change the working copy.
            #expect(store.state.firstName == "Jill")
            store.lastName = "Valentine"
            store.mutate { $0.age = 23 }
            #expect(state.lastName == "Valentine")
        }
        #expect(store.state == Profile(firstName: "Jill", lastName: "Valentine", age: 23))
        #expect(changes.count == 1)
    }

    @Test func writingTheSameValueNotifiesNobody() {
        let store = Store<Profile>(wrappedValue: Profile(firstName: "Jill"))
        let changes = Recorder<Profile>()
        store.willChange += changes.record
        store.firstName = "Jill"
        store.state = store.state
        store.mutate { $0.firstName = "Jill" }
        #expect(changes.count == 0)
    }

    @Test func didChangeCarriesOldAndNew() {
        let store = Store<Profile>()
        let changes = Recorder<StateChange<Profile>>()
        store.didChange += changes.record
        store.firstName = "Jill"
        store.state.age = 23
        #expect(changes.values.map(\.old.firstName) == ["", "Jill"])
        #expect(changes.values.map(\.new.age) == [0, 23])
        #expect(changes.values[0].changed(\.firstName))
        #expect(!changes.values[1].changed(\.firstName))
    }

    @Test func concurrentMutationsLoseNothing() async {
        let store = Store<Profile>()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    for _ in 0..<500 { store.mutate { $0.age += 1 } }
                }
            }
        }
        #expect(store.age == 4_000)
    }

    /// Writes of other threads that commit while a body runs, made to: the body's first run waits
    /// for them. The run is then stale and runs again on their values: neither the other field nor
    /// the increment is lost.
    @Test func writesCommittedWhileTheBodyRunsAreNotLost() async {
        let store = Store<Profile>()
        let runs = LockedBox(0)
        await onThreads(1) { _ in
            store.mutate { state in
                runs.mutate { $0 += 1 }
                if runs.value == 1 {
                    let written = DispatchSemaphore(value: 0)
                    startThread {
                        store.mutate { $0.age += 10 }
                        store.firstName = "written meanwhile"
                        written.signal()
                    }
                    written.wait()
                }
                state.age += 1
            }
        }
        #expect(runs.value == 2)
        #expect(store.age == 11)
        #expect(store.firstName == "written meanwhile")
    }

    @Test func concurrentKeyedWritesToDifferentPropertiesLoseNothing() async {
        let store = Store<Profile>()
        await withTaskGroup(of: Void.self) { group in
            group.addTask { for index in 0..<1_000 { store.age = index } }
            group.addTask { for index in 0..<1_000 { store.firstName = "\(index)" } }
        }
        #expect(store.age == 999)
        #expect(store.firstName == "999")
    }

    @Test func releasingTheOldValueOfAKeyedWriteCanUseTheStore() {
        // The value a keyed write replaces is released after the lock: its deinit may read the
        // store without deadlocking.
        let store = Store<Holder>()
        let read = Recorder<Bool>()
        store.object = ReadsStoreOnDeinit { read.record(store.object != nil) }
        store.object = nil
        #expect(read.values == [false])
    }

    // MARK: Writes through the whole state (`state.x = value`)

    /// The value a whole-state write replaces is released after the lock too.
    @Test func releasingTheOldStateOfAWholeStateWriteCanUseTheStore() {
        let store = Store<Holder>()
        let read = Recorder<Bool>()
        store.state.object = ReadsStoreOnDeinit { read.record(store.state.object != nil) }
        store.state.object = nil
        #expect(read.values == [false])
    }

    struct Refused: Error {}

    /// A whole-state write whose mutation throws half-way commits nothing, and leaves the store
    /// ready for the next write.
    @Test func aWholeStateWriteThatThrowsCommitsNothing() {
        struct Form: AnyState {
            var age = 0
            var tags: [String] = []
            mutating func setAndFail() throws {
                age = 99
                tags.append("half")
                throw Refused()
            }
        }
        let store = Store<Form>()
        let heard = Recorder<Int>()
        store.observe(\.age) { heard.record($0) }
        #expect(throws: Refused.self) { try store.state.setAndFail() }
        #expect(store.state == Form())
        store.state.age = 1
        #expect(store.state.age == 1)
        #expect(heard.values == [1])
    }

    /// Two whole-state writes of one store open at once (`swap` of two of its properties): each
    /// works on its own copy (the second does not get the store's reusable buffer, which the first
    /// holds), and the later commit wins, as with any two whole-state writes.
    @Test func overlappingWholeStateWritesEachHaveTheirOwnCopy() {
        let store = Store<Profile>(wrappedValue: Profile(firstName: "Jill", lastName: "Valentine"))
        swap(&store.state.firstName, &store.state.lastName)
        let state = store.state
        #expect([state.firstName, state.lastName].allSatisfy { $0 == "Jill" || $0 == "Valentine" })
        store.state.tags = ["after"]
        #expect(store.state.tags == ["after"])
    }

    /// A state of plain bits has only its changed words copied in; one with references is swapped
    /// in whole. Both end up exactly as written, and observers of what changed hear it.
    @Test func wholeStateWritesOfPlainAndReferenceStatesCommitExactly() {
        struct Plain: AnyState {
            var a = 0, b = 0, c = (0, 0, 0, 0, 0)
            static func == (lhs: Plain, rhs: Plain) -> Bool { lhs.a == rhs.a && lhs.b == rhs.b && lhs.c == rhs.c }
        }
        let plain = Store<Plain>()
        let heard = Recorder<Int>()
        plain.observe(\.b) { heard.record($0) }
        plain.state.b = 7
        plain.state.c.4 = 5
        plain.state = Plain(a: 1, b: 7, c: (1, 2, 3, 4, 5))
        #expect(plain.state == Plain(a: 1, b: 7, c: (1, 2, 3, 4, 5)))
        #expect(heard.values == [7])

        let profile = Store<Profile>()
        profile.state.tags.append("x")
        profile.state.address.city = "Raccoon City"
        profile.state = Profile(firstName: "Jill", tags: ["x", "y"])
        #expect(profile.state == Profile(firstName: "Jill", tags: ["x", "y"]))
    }

    /// Whole-state writes of one store from several threads at once: every copy is made and
    /// destroyed once (run under the sanitizers in CI), and each write commits a whole state.
    @Test func concurrentWholeStateWritesAreEachCommittedWhole() async {
        let store = Store<Profile>()
        await withTaskGroup(of: Void.self) { group in
            for thread in 0..<4 {
                group.addTask {
                    for index in 0..<500 {
                        store.state.tags = [String(thread), String(index)]
                    }
                }
            }
        }
        let tags = store.state.tags
        #expect(tags.count == 2 && tags[1] == "499")
    }

    /// A state of plain bits: the store's write buffer may keep the last committed state and skip
    /// copying it in, but only while nothing else committed. Keyed writes, `mutate`, a write
    /// that throws and writes from other threads in between are never undone by the next
    /// whole-state write.
    @Test func aReusedWriteBufferNeverUndoesAnotherCommit() throws {
        struct Counters: AnyState {
            var a = 0, b = 0, c = 0, d = 0
            mutating func bumpAndFail() throws {
                a += 100
                throw Refused()
            }
        }
        let store = Store<Counters>()
        store.state.a = 1  // fills the buffer
        store.state.a = 2  // may reuse it
        store.b = 3  // a keyed write commits without the buffer
        store.state.c = 4  // must start from b == 3
        #expect(store.state == Counters(a: 2, b: 3, c: 4))
        store.mutate { $0.d = 5 }
        store.state.a = 6
        #expect(store.state == Counters(a: 6, b: 3, c: 4, d: 5))
        #expect(throws: Refused.self) { try store.state.bumpAndFail() }
        store.state.b = 7  // must not carry the abandoned a += 100
        #expect(store.state == Counters(a: 6, b: 7, c: 4, d: 5))
        store.state = Counters(a: 6, b: 7, c: 4, d: 5)  // unchanged: the buffer stays usable
        store.state.d = 8
        #expect(store.state == Counters(a: 6, b: 7, c: 4, d: 8))
    }
}

/// A value whose deinit runs `onDeinit`: for checking that a store releases replaced values after
/// its lock (the deinit may read the store).
private final class ReadsStoreOnDeinit: @unchecked Sendable, Equatable {
    let onDeinit: @Sendable () -> Void
    init(_ onDeinit: @escaping @Sendable () -> Void) { self.onDeinit = onDeinit }
    deinit { onDeinit() }
    static func == (lhs: ReadsStoreOnDeinit, rhs: ReadsStoreOnDeinit) -> Bool { lhs === rhs }
}

private struct Holder: AnyState {
    var object: ReadsStoreOnDeinit?
}
