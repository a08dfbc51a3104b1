import ComposeEmitters
import ComposeStore
import ComposeTestSupport
import Testing

@testable import ComposeRefs

/// Inside `Referred.mutate`, reads and writes of the same entity on the same thread go to the
/// body's working copy, as a store's do: they are part of the run, and cannot make it lose its
/// run (which, run after run, would never end). Each body here throws after 50 runs, so a test
/// that would loop forever fails instead.
@Suite struct NestedMutateTests {
    struct TooManyRuns: Error {}

    @Test func aNestedMutateOfTheSameEntityIsPartOfTheRun() throws {
        let referred = Referred(Card.fresh())
        let store = cardStore(referred)
        let heard = Recorder<Int>()
        let subscription = store.observe(\.card.count) { heard.record($0) }
        var runs = 0
        try referred.mutate { card in
            runs += 1
            if runs > 50 { throw TooManyRuns() }
            card.count += 10
            referred.mutate { $0.count += 1 }
            #expect(referred.value.count == 11)  // a read sees the working copy
        }
        subscription.cancel()
        #expect(runs == 1)
        #expect(referred.value.count == 11)
        #expect(heard.values == [11])  // one commit
    }

    @Test func aNestedMutateThatThrowsUndoesOnlyItsOwnChanges() {
        struct Refused: Error {}
        let referred = Referred(Card.fresh())
        referred.mutate { card in
            card.count = 1
            #expect(throws: Refused.self) {
                try referred.mutate { inner in
                    inner.count = 99
                    throw Refused()
                }
            }
            #expect(card.count == 1)
        }
        #expect(referred.value.count == 1)
    }

    @Test func aWriteOfTheEntityThroughAStoresRefIsPartOfTheRun() throws {
        let referred = Referred(Card.fresh())
        let store = cardStore(referred)
        var runs = 0
        try referred.mutate { card in
            runs += 1
            if runs > 50 { throw TooManyRuns() }
            store.mutate { state in
                state.note = "touched"
                state.card.count += 1  // reaches the entity at once: the working copy here
            }
            card.title = "both"
        }
        #expect(runs == 1)
        #expect(referred.value.count == 1)
        #expect(referred.value.title == "both")
        #expect(store.note == "touched")
    }

    @Test func aWholeValueWrittenInsideTheBodyIsPartOfTheRun() throws {
        let referred = Referred(Card.fresh())
        var runs = 0
        try referred.mutate { card in
            runs += 1
            if runs > 50 { throw TooManyRuns() }
            referred.value = Card(id: card.id, title: "whole", count: 5)
        }
        #expect(runs == 1)
        #expect(referred.value.count == 5)
        #expect(referred.value.title == "whole")
    }
}
