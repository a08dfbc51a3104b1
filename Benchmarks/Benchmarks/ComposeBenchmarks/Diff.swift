import Benchmark
import ComposeStore

/// Diff scenarios: identified arrays of 10,000 and 100,000 elements, with about 10% of the
/// elements removed, moved, updated or inserted at random (2.5% each). Peer in the same run,
/// at 10,000 elements: the standard library's `difference(from:).inferringMoves()` (at 100,000
/// it takes minutes: its cost grows with the product of the size and the number of edits). A
/// floor at both sizes: the standard library's `Set` of the old ids.
func diffBenchmarks() {
    for count in [10_000, 100_000] {
        var generator = SplitMix64(seed: UInt64(count))
        var nextID = count
        let old = Row.rows(count)
        let new = RandomEdits.scattered(old, fraction: 0.1, nextID: &nextID, using: &generator)
        let configuration = scenario(ops: 1, unit: "diffs")
        Benchmark("Store/diff \(count) elements/Compose", configuration: configuration) { _ in
            blackHole(Changeset(from: old, to: new))
        }
        // Not a peer: a floor. Every diff that pairs elements by id puts the old ids in some
        // table; this is the standard library's own table doing only that, at both sizes, to show
        // how much of the cost of 100,000 against 10,000 the machine's caches add to any of them.
        Benchmark(
            "Store/diff \(count) elements/stdlib Set of the old ids",
            configuration: scenario(ops: 1, unit: "sets")
        ) { _ in
            let ids = Set(old.lazy.map(\.id))
            precondition(ids.count == count, "every old id is in the set")
        }
        if count == 10_000 {
            Benchmark(
                "Store/diff \(count) elements/stdlib difference(from:).inferringMoves()",
                configuration: configuration
            ) { _ in
                blackHole(new.difference(from: old).inferringMoves())
            }
        }
    }
}
