import ComposeEmitters
import ComposeStore
import ComposeTestSupport
import Testing

@Suite struct ObserveChangesTests {
    struct Inventory: AnyState {
        var rows: [Row] = []
        var title = ""
    }

    @Test func changesetsRebuildTheArrayAHandlerSaw() {
        let store = Store<Inventory>()
        let changesets = Recorder<Changeset<Row>>()
        store.observeChanges(\.rows) { changesets.record($0) }

        var generator = SplitMix64(seed: 3)
        var nextID = 0
        var mirror: [Row] = []
        for _ in 0..<200 {
            store.rows = RandomEdits.apply(3, to: store.rows, nextID: &nextID, using: &generator)
            store.title = "elsewhere"  // not the array: no changeset
        }
        for changeset in changesets.values {
            #expect(!changeset.isEmpty)
            mirror = changeset.applied(to: mirror)
        }
        #expect(mirror == store.rows)
    }

    @Test func oneChangesetPerBatch() {
        let store = Store<Inventory>()
        let changesets = Recorder<Changeset<Row>>()
        store.observeChanges(\.rows) { changesets.record($0) }
        store.mutate { state in
            state.rows.append(Row(id: 1))
            state.rows.append(Row(id: 2))
            state.rows.swapAt(0, 1)
        }
        #expect(changesets.count == 1)
        #expect(changesets.values.first?.insertions.map(\.id) == [2, 1])
    }

    @Test func cancellingStopsTheHandler() {
        let store = Store<Inventory>()
        let changesets = Recorder<Changeset<Row>>()
        let subscription = store.observeChanges(\.rows) { changesets.record($0) }
        store.rows = [Row(id: 1)]
        subscription.cancel()
        store.rows = []
        #expect(changesets.count == 1)
    }
}
