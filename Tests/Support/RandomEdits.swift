// Random but reproducible edits of identified arrays, for the diff's property tests and its
// benchmark.

/// A small, fast, seedable generator (SplitMix64), so a failing property test or a benchmark
/// input can be reproduced from its seed.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// An identified row: an id and a value that an update changes.
public struct Row: Identifiable, Equatable, Hashable, Sendable, Codable {
    public var id: Int
    public var value: Int

    public init(id: Int, value: Int = 0) {
        self.id = id
        self.value = value
    }

    /// `count` rows with ids `0..<count`.
    public static func rows(_ count: Int) -> [Row] {
        (0..<count).map { Row(id: $0) }
    }
}

/// The kinds of edit ``RandomEdits`` makes.
public enum Edit: CaseIterable, Sendable {
    /// An insert of a row with a fresh id.
    case insert
    case remove, move, update
    /// An insert of a copy of an existing row, so its id repeats (also when it was unique before).
    case duplicate
}

public enum RandomEdits {
    /// `rows` after `count` random edits, each an insert (of a fresh id), a removal, a move, an
    /// update or a duplicate, chosen among `kinds`. Fresh ids start at `nextID`, which is advanced.
    public static func apply(
        _ count: Int,
        to rows: [Row],
        kinds: [Edit] = Edit.allCases,
        nextID: inout Int,
        using generator: inout SplitMix64
    ) -> [Row] {
        var rows = rows
        for _ in 0..<count {
            switch kinds.randomElement(using: &generator)! {
            case .insert:
                rows.insert(Row(id: nextID), at: Int.random(in: 0...rows.count, using: &generator))
                nextID += 1
            case .remove where !rows.isEmpty:
                rows.remove(at: Int.random(in: rows.indices, using: &generator))
            case .move where !rows.isEmpty:
                let row = rows.remove(at: Int.random(in: rows.indices, using: &generator))
                rows.insert(row, at: Int.random(in: 0...rows.count, using: &generator))
            case .update where !rows.isEmpty:
                rows[Int.random(in: rows.indices, using: &generator)].value += 1
            case .duplicate where !rows.isEmpty:
                let row = rows[Int.random(in: rows.indices, using: &generator)]
                rows.insert(row, at: Int.random(in: 0...rows.count, using: &generator))
            case .remove, .move, .update, .duplicate:
                break
            }
        }
        return rows
    }
}

extension RandomEdits {
    /// `rows` with about `fraction` of its elements edited, in O(*n* log *n*) time (for large
    /// arrays, where ``apply(_:to:kinds:nextID:using:)`` would spend its time shifting
    /// elements): each row is removed, moved, updated or kept, a fourth of `fraction` each, and
    /// a fresh row is inserted after a fourth of `fraction` of them. Moved rows land at random
    /// positions.
    public static func scattered(
        _ rows: [Row],
        fraction: Double,
        nextID: inout Int,
        using generator: inout SplitMix64
    ) -> [Row] {
        let quarter = fraction / 4
        var kept: [Row] = []
        kept.reserveCapacity(rows.count + Int(Double(rows.count) * quarter) + 1)
        var moving: [Row] = []
        for var row in rows {
            let draw = Double.random(in: 0..<1, using: &generator)
            if draw < quarter {
                // Removed.
            } else if draw < 2 * quarter {
                moving.append(row)
            } else {
                if draw < 3 * quarter { row.value += 1 }
                kept.append(row)
            }
            if Double.random(in: 0..<1, using: &generator) < quarter {
                kept.append(Row(id: nextID))
                nextID += 1
            }
        }
        // Each moving row lands before the kept row at a random position: sort the positions
        // and merge.
        let landings = moving.map { (Int.random(in: 0...kept.count, using: &generator), $0) }
            .sorted { $0.0 < $1.0 }
        var result: [Row] = []
        result.reserveCapacity(kept.count + moving.count)
        var landing = landings.startIndex
        for index in 0...kept.count {
            while landing < landings.endIndex && landings[landing].0 == index {
                result.append(landings[landing].1)
                landing += 1
            }
            if index < kept.count { result.append(kept[index]) }
        }
        return result
    }
}
